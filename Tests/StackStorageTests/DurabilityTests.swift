import Dispatch
import Foundation
import GRDB
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class DurabilityTests: StorageTestCase {
  func testEachModeSetsWALAndItsSynchronousLevelOnTheWriter() throws {
    let modes: [(Durability, Int)] = [(.full, 2), (.normal, 1), (.groupCommit(maxBatch: 64), 2)]
    for (durability, level) in modes {
      let journal = try makeJournal(.onDisk, options: .init(durability: durability))
      try journal.database.writeWithoutTransaction { db in
        XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA synchronous"), level, "\(durability)")
        XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA journal_mode"), "wal")
      }
      XCTAssertTrue(journal.database is DatabasePool, "readers never block the writer")
    }
  }

  func testGroupCommitGivesEveryConcurrentWriterAGaplessJournal() async throws {
    for storage in Storage.allCases {
      let journal = try makeJournal(storage, options: .init(durability: .groupCommit(maxBatch: 16)))
      let writers = 8
      let appendsPerWriter = 100
      for writer in 0..<writers {
        _ = try await journal.createSession(
          SessionID("writer-\(writer)"), initial: StateEncoding.encode(Root()), version: 1)
      }
      let failures = LockedCounter()
      await runConcurrently(writers) { writer in
        var root = Root()
        for sequence in 0..<appendsPerWriter {
          root.tabA.append(.counter(Counter(count: sequence)))
          if root.tabA.count > 5 { root.tabA.removeFirst() }
          do {
            let appended = try await journal.append(
              session: SessionID("writer-\(writer)"), expectedSequence: Int64(sequence),
              .test("push", state: root))
            if appended != Int64(sequence + 1) { failures.increment() }
          } catch {
            failures.increment()
          }
        }
      }
      XCTAssertEqual(failures.value, 0, "\(storage)")
      let statistics = try XCTUnwrap(journal.batcher).statistics
      XCTAssertEqual(statistics.requests, writers * appendsPerWriter)
      if storage == .onDisk {
        XCTAssertGreaterThan(statistics.largestBatch, 1, "appends were coalesced")
      }
      for writer in 0..<writers {
        let session = SessionID("writer-\(writer)")
        var sequences: [Int64] = []
        try await journal.entries(session: session) {
          sequences.append($0.sequence)
          return true
        }
        XCTAssertEqual(sequences, Array(1...Int64(appendsPerWriter)), "\(storage) \(session)")
        var root = Root()
        for sequence in 0..<appendsPerWriter {
          root.tabA.append(.counter(Counter(count: sequence)))
          if root.tabA.count > 5 { root.tabA.removeFirst() }
        }
        XCTAssertEqual(
          try journal.headStacks(session: session), try StateEncoding.encode(root).stacks)
      }
    }
  }

  func testRacingWritersOnOneSessionNeverFork() async throws {
    for durability in [Durability.full, .groupCommit(maxBatch: 8)] {
      let journal = try makeJournal(.onDisk, options: .init(durability: durability))
      _ = try await journal.createSession("shared", initial: StateEncoding.encode(Root()), version: 1)
      let conflicts = LockedCounter()
      let successes = LockedCounter()
      await runConcurrently(4) { writer in
        for _ in 0..<50 {
          while true {
            do {
              let head = try journal.headSequence(session: "shared")
              var root = Root()
              root.selectedTab = "\(writer)-\(head)"
              _ = try await journal.append(
                session: "shared", expectedSequence: head,
                .test("write", payload: #"{"writer":\#(writer)}"#, state: root))
              successes.increment()
              break
            } catch let error as StorageError where error.code == .sequenceConflict {
              conflicts.increment()
            } catch {
              XCTFail("\(error)")
              return
            }
          }
        }
      }
      XCTAssertEqual(successes.value, 200)
      XCTAssertEqual(try journal.headSequence(session: "shared"), 200, "\(durability)")
      var sequences: [Int64] = []
      try await journal.entries(session: "shared") {
        sequences.append($0.sequence)
        return true
      }
      XCTAssertEqual(sequences, Array(1...200))
    }
  }

  func testAConflictInABatchDoesNotUndoTheOthers() async throws {
    let journal = try makeJournal(.inMemory, options: .init(durability: .groupCommit()))
    _ = try await journal.createSession("a", initial: StateEncoding.encode(Root()), version: 1)
    _ = try await journal.createSession("b", initial: StateEncoding.encode(Root()), version: 1)
    let batcher = try XCTUnwrap(journal.batcher)
    let results = LockedResults()
    await runConcurrently(2) { index in
      do {
        let sequence = try await journal.append(
          session: index == 0 ? "a" : "b", expectedSequence: index == 0 ? 0 : 7,
          .test("x", state: Root()))
        results.append("ok \(sequence)")
      } catch let error as StorageError {
        results.append(error.code.name)
      } catch {
        results.append("\(error)")
      }
    }
    XCTAssertEqual(results.values.sorted(), ["ok 1", "sequenceConflict"])
    XCTAssertEqual(try journal.headSequence(session: "a"), 1)
    XCTAssertEqual(try journal.headSequence(session: "b"), 0)
    XCTAssertGreaterThan(batcher.statistics.batches, 0)
  }

  func testReadersDoNotBlockTheWriter() async throws {
    let journal = try makeJournal(.onDisk)
    var root = Root()
    _ = try await journal.createSession("s", initial: StateEncoding.encode(root), version: 1)
    let readerStarted = DispatchSemaphore(value: 0)
    let writerDone = DispatchSemaphore(value: 0)
    let readerSawHead = LockedResults()
    DispatchQueue.global().async {
      try? journal.database.read { db in
        readerStarted.signal()
        _ = writerDone.wait(timeout: .now() + 10)
        // A reader sees the state as of the start of its transaction.
        let head = try Int64.fetchOne(
          db, sql: "SELECT \(SessionRows.headColumn) FROM sessions s")
        readerSawHead.append("\(head ?? -1)")
      }
      readerSawHead.append("done")
    }
    readerStarted.wait()
    root.tabA.append(.home)
    let started = Date()
    _ = try await journal.append(session: "s", expectedSequence: 0, .test("push", state: root))
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    writerDone.signal()
    while readerSawHead.values.count < 2 { usleep(1000) }
    XCTAssertEqual(readerSawHead.values, ["0", "done"])
    XCTAssertEqual(try journal.headSequence(session: "s"), 1)
  }
}

/// Runs `body` on `count` threads of its own at once (not on a pool that may run fewer at a
/// time), and waits for all of them.
func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) async -> Void) async {
  await withTaskGroup(of: Void.self) { group in
    for index in 0..<count {
      group.addTask { await body(index) }
    }
  }
}

final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  var value: Int { lock.withLock { count } }

  func increment() {
    lock.withLock { count += 1 }
  }
}

final class LockedResults: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []

  var values: [String] { lock.withLock { storage } }

  func append(_ value: String) {
    lock.withLock { storage.append(value) }
  }
}
