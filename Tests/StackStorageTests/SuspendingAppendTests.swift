// Appends that suspend hold at most one thread of the cooperative pool while they wait for the
// disk: at `.full` the append that finds no other in progress is written on its caller's thread
// and the others suspend while GRDB's writer commits them; with group commit every append
// suspends while the batcher's writer queue commits its batch. An append goes through when the
// task awaiting it is cancelled.
import Dispatch
import Foundation
import StackNavigation
import XCTest

@testable import StackStorage

final class SuspendingAppendTests: StorageTestCase {
  func testAppendsWaitingForTheWriterLeaveThePoolFree() async throws {
    try XCTSkipIf(
      ProcessInfo.processInfo.activeProcessorCount < 2,
      "one append may hold the only thread of a one-core pool")
    for durability in [Durability.full, .groupCommit()] {
      let journal = try makeJournal(.onDisk, options: .init(durability: durability))
      // More appends than the pool has threads: were they all to block, none would be left.
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
    // At `.normal` every append is written on its caller's thread, which a cancellation cannot
    // stop; two such appends would hold both threads of a two-core pool here.
    for durability in [Durability.full, .groupCommit()] {
      let journal = try makeJournal(.onDisk, options: .init(durability: durability))
      for session in ["first", "second"] {
        _ = try journal.createSession(
          SessionID(session), initial: StateEncoding.encode(Root()), version: 1)
      }
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
      func append(_ session: SessionID) -> Task<Int64, any Error> {
        Task {
          try await journal.appendSuspending(
            session: session, expectedSequence: 0, .test("push", state: state))
        }
      }
      // At `.full` the first append is written on its own thread; the second, which finds it in
      // progress, waits for GRDB's writer: that is the one cancelled.
      let first = append("first")
      while durability == .full, journal.suspendingAppends.value == 0 {
        try await Task.sleep(for: .milliseconds(5))
      }
      let second = append("second")
      try await Task.sleep(for: .milliseconds(50))
      second.cancel()
      release.signal()
      for task in [first, second] {
        let sequence = try await task.value
        XCTAssertEqual(sequence, 1, "\(durability)")
      }
      for session in ["first", "second"] {
        XCTAssertEqual(try journal.headSequence(session: SessionID(session)), 1, "\(durability)")
      }
    }
  }
}
