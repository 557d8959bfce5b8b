// Appends that suspend hold no thread of the cooperative pool while they wait for the disk: at
// `.full` (GRDB's writer commits the append's own transaction) and with group commit (the
// batcher's writer queue commits the batch).
import Dispatch
import Foundation
import StackNavigation
import XCTest

@testable import StackStorage

final class SuspendingAppendTests: StorageTestCase {
  func testAppendsWaitingForTheWriterLeaveThePoolFree() async throws {
    for durability in [Durability.full, .groupCommit()] {
      let journal = try makeJournal(.onDisk, options: .init(durability: durability))
      // More appends than the pool has threads: were they to block, none would be left.
      let writers = max(8, 4 * ProcessInfo.processInfo.activeProcessorCount)
      for writer in 0..<writers {
        _ = try journal.createSession(
          SessionID("w\(writer)"), initial: StateEncoding.encode(Root()), version: 1)
      }
      let writerHeld = LockIsolated(false)
      let heldTooLong = LockIsolated(false)
      let release = DispatchSemaphore(value: 0)
      let database = journal.database
      // Another thread holds GRDB's writer, as a long flush would.
      DispatchQueue.global().async {
        try? database.writeWithoutTransaction { _ in
          writerHeld.setValue(true)
          if release.wait(timeout: .now() + 10) == .timedOut { heldTooLong.setValue(true) }
        }
      }
      while !writerHeld.value { try await Task.sleep(for: .milliseconds(5)) }
      let appends = (0..<writers).map { writer in
        Task {
          var root = Root()
          root.tabA.append(.counter(Counter(count: writer)))
          return try await journal.appendSuspending(
            session: SessionID("w\(writer)"), expectedSequence: 0, .test("push", state: root))
        }
      }
      // This task resumes only if the waiting appends left a thread of the pool free.
      try await Task.sleep(for: .milliseconds(300))
      XCTAssertFalse(
        heldTooLong.value, "\(durability): the waiting appends held every thread of the pool")
      release.signal()
      for append in appends {
        let sequence = try await append.value
        XCTAssertEqual(sequence, 1, "\(durability)")
      }
      for writer in 0..<writers {
        XCTAssertEqual(try journal.headSequence(session: SessionID("w\(writer)")), 1)
      }
      XCTAssertTrue(try JournalVerifier().verify(journal).isClean, "\(durability)")
    }
  }

  func testAnAppendWhoseTaskIsCancelledStillCommits() async throws {
    for durability in [Durability.full, .normal, .groupCommit()] {
      let journal = try makeJournal(.onDisk, options: .init(durability: durability))
      _ = try journal.createSession("s", initial: StateEncoding.encode(Root()), version: 1)
      let writerHeld = LockIsolated(false)
      let release = DispatchSemaphore(value: 0)
      let database = journal.database
      DispatchQueue.global().async {
        try? database.writeWithoutTransaction { _ in
          writerHeld.setValue(true)
          _ = release.wait(timeout: .now() + 10)
        }
      }
      while !writerHeld.value { try await Task.sleep(for: .milliseconds(5)) }
      var root = Root()
      root.tabA.append(.counter(Counter(count: 1)))
      let state = root
      let append = Task {
        try await journal.appendSuspending(
          session: "s", expectedSequence: 0, .test("push", state: state))
      }
      try await Task.sleep(for: .milliseconds(50))
      append.cancel()
      release.signal()
      let sequence = try await append.value
      XCTAssertEqual(sequence, 1, "\(durability)")
      XCTAssertEqual(try journal.headSequence(session: "s"), 1, "\(durability)")
    }
  }
}
