// Closing a journal: calls after it fail with `.closed` (GRDB would stop the process on a closed
// database), calls in progress finish first, and nothing acknowledged is lost. Appends that
// suspend share group-commit batches.
import Foundation
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class CloseTests: StorageTestCase {
  /// A journal at `path` with session `s` of three pushes; `afterEach` runs after each.
  func journalOfThreePushes(
    at path: String, afterEach: (SQLiteJournal, Int64) async throws -> Void = { _, _ in }
  ) async throws -> (SQLiteJournal, Root) {
    let journal = try SQLiteJournal(path: path)
    var root = Root()
    _ = try await journal.createSession("s", initial: StateEncoding.encode(root), version: 1)
    for sequence in 0..<3 {
      root.tabA.append(.counter(Counter(count: sequence)))
      _ = try await journal.append(
        session: "s", expectedSequence: Int64(sequence), .test("push", state: root))
      try await afterEach(journal, Int64(sequence + 1))
    }
    return (journal, root)
  }

  func testCallsAfterCloseThrowClosedAndTheFileKeepsEverything() async throws {
    let path = directory.path("closed.sqlite")
    let (journal, root) = try await journalOfThreePushes(at: path)
    try journal.close()
    try journal.close()  // again: nothing happens

    let error = await assertStorageError(.closed) { try journal.headSequence(session: "s") }
    XCTAssertEqual(
      error?.message,
      "The journal at \(path) was closed before reading the head of session s. Open it again "
        + "to go on.")
    await assertStorageError(.closed) {
      try await journal.append(session: "s", expectedSequence: 3, .test("push", state: root))
    }
    await assertStorageError(.closed) { try journal.sessions() }
    await assertStorageError(.closed) { try journal.vacuum() }

    let reopened = try SQLiteJournal(path: path)
    XCTAssertEqual(try reopened.headSequence(session: "s"), 3)
    XCTAssertEqual(try reopened.headStacks(session: "s"), try StateEncoding.encode(root).stacks)
    XCTAssertTrue(try reopened.verifyStorage().isClean)
  }

  /// A pool closes its writer before its readers; a read-only connection closing last would
  /// leave the write-ahead log beside the file, and another process could then not write it.
  func testCloseFoldsTheLogIntoTheFileAfterReadsAndWrites() async throws {
    let path = directory.path("folded.sqlite")
    let (journal, _) = try await journalOfThreePushes(at: path) { journal, head in
      // Reads open the pool's reader connections.
      XCTAssertEqual(try journal.headSequence(session: "s"), head)
      XCTAssertEqual(try journal.sessions().count, 1)
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"))
    try journal.close()
    XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-shm"))
    #if os(Linux)
      // No connection is left open on the file.
      let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
      let open = descriptors.compactMap {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
      }
      XCTAssertEqual(open.filter { $0.hasPrefix(path) }, [])
    #endif
    XCTAssertEqual(try SQLiteJournal(path: path).headSequence(session: "s"), 3)
  }

  func testCloseWaitsForTheAppendsInProgressAndLosesNoneItAcknowledged() async throws {
    let path = directory.path("closing.sqlite")
    let journal = try SQLiteJournal(path: path, options: .init(durability: .groupCommit()))
    let writers = 8
    for writer in 0..<writers {
      _ = try await journal.createSession(
        SessionID("w\(writer)"), initial: StateEncoding.encode(Root()), version: 1)
    }
    let acknowledged = LockIsolated([Int](repeating: 0, count: writers))
    let otherErrors = LockIsolated<[String]>([])
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<writers {
        group.addTask {
          var root = Root()
          for sequence in 0..<10_000 {
            root.tabA.append(.counter(Counter(count: sequence)))
            do {
              _ = try await journal.append(
                session: SessionID("w\(writer)"), expectedSequence: Int64(sequence),
                .test("push", state: root))
              acknowledged.withValue { $0[writer] += 1 }
            } catch let error as StorageError where error.code == .closed {
              return
            } catch {
              otherErrors.withValue { $0.append("\(error)") }
              return
            }
          }
        }
      }
      group.addTask {
        // Closes from a thread of its own while every writer has appends under way.
        while acknowledged.value.reduce(0, +) < 200 { try? await Task.sleep(for: .milliseconds(1)) }
        await withCheckedContinuation { continuation in
          Thread.detachNewThread {
            try? journal.close()
            continuation.resume()
          }
        }
      }
    }
    XCTAssertEqual(otherErrors.value, [])
    XCTAssertGreaterThanOrEqual(acknowledged.value.reduce(0, +), 200)
    XCTAssertLessThan(acknowledged.value.reduce(0, +), writers * 10_000, "closed while appending")
    let reopened = try SQLiteJournal(path: path)
    for writer in 0..<writers {
      XCTAssertEqual(
        try reopened.headSequence(session: SessionID("w\(writer)")),
        Int64(acknowledged.value[writer]), "every acknowledged append of writer \(writer)")
    }
    XCTAssertTrue(try reopened.verifyStorage().isClean)
  }

  func testSuspendedAppendsOfManyTasksShareBatches() async throws {
    let journal = try makeJournal(.onDisk, options: .init(durability: .groupCommit()))
    let writers = 8
    let appends = 40
    for writer in 0..<writers {
      _ = try await journal.createSession(
        SessionID("w\(writer)"), initial: StateEncoding.encode(Root()), version: 1)
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<writers {
        group.addTask {
          var root = Root()
          for sequence in 0..<appends {
            root.tabA.append(.counter(Counter(count: sequence)))
            let appended = try await journal.append(
              session: SessionID("w\(writer)"), expectedSequence: Int64(sequence),
              .test("push", state: root))
            XCTAssertEqual(appended, Int64(sequence + 1))
          }
        }
      }
      try await group.waitForAll()
    }
    let statistics = try XCTUnwrap(journal.groupCommitStatistics)
    XCTAssertEqual(statistics.appends, writers * appends)
    // Eight tasks on a two-core pool: while one batch is written the others queue up.
    XCTAssertGreaterThan(statistics.largestBatch, 1)
    XCTAssertLessThan(statistics.batches, writers * appends)
    for writer in 0..<writers {
      XCTAssertEqual(try journal.headSequence(session: SessionID("w\(writer)")), Int64(appends))
    }
  }
}
