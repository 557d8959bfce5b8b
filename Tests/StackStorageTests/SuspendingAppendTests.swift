// Appends that suspend hold at most one thread of the cooperative pool while they wait for the
// disk: at `.full` the append that finds no other in progress is written on its caller's thread
// and the others suspend while GRDB's writer commits them; with group commit every append
// suspends while the batcher's writer queue commits its batch. An append goes through when the
// task awaiting it is cancelled.
import Dispatch
import Foundation
import StackNavigation
import XCTest

@testable import StackJournalCore
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
        _ = try await journal.createSession(
          SessionID("w\(writer)"), initial: StateEncoding.encode(Root()), version: 1)
      }
      let held = try await HeldWriter(of: journal)
      let appends = (0..<writers).map { writer in
        Task {
          var root = Root()
          root.tabA.append(.counter(Counter(count: writer)))
          return try await journal.append(
            session: SessionID("w\(writer)"), expectedSequence: 0, .test("push", state: root))
        }
      }
      // This task resumes only if the waiting appends left a thread of the pool free.
      try await Task.sleep(for: .milliseconds(300))
      XCTAssertFalse(
        held.heldTooLong, "\(durability): the waiting appends held every thread of the pool")
      held.release()
      for append in appends {
        let sequence = try await append.value
        XCTAssertEqual(sequence, 1, "\(durability)")
      }
      for writer in 0..<writers {
        XCTAssertEqual(try journal.headSequence(session: SessionID("w\(writer)")), 1)
      }
      XCTAssertTrue(try journal.verifyStorage().isClean, "\(durability)")
    }
  }

  func testAnAppendWhoseTaskIsCancelledStillCommits() async throws {
    // At `.normal` every append is written on its caller's thread, which a cancellation cannot
    // stop; two such appends would hold both threads of a two-core pool here.
    for durability in [Durability.full, .groupCommit()] {
      let journal = try makeJournal(.onDisk, options: .init(durability: durability))
      for session in ["first", "second"] {
        _ = try await journal.createSession(
          SessionID(session), initial: StateEncoding.encode(Root()), version: 1)
      }
      let held = try await HeldWriter(of: journal)
      var root = Root()
      root.tabA.append(.counter(Counter(count: 1)))
      let state = root
      func append(_ session: SessionID) -> Task<Int64, any Error> {
        Task {
          try await journal.append(
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
      held.release()
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

/// GRDB's writer held by another thread, as a long flush would hold it, until released or for
/// ten seconds at most.
private struct HeldWriter {
  private let released = DispatchSemaphore(value: 0)
  private let timedOut = LockIsolated(false)

  /// Holds the journal's writer; returns once it is held.
  init(of journal: SQLiteJournal) async throws {
    let held = LockIsolated(false)
    let (database, released, timedOut) = (journal.database, released, timedOut)
    DispatchQueue.global().async {
      try? database.writeWithoutTransaction { _ in
        held.setValue(true)
        if released.wait(timeout: .now() + 10) == .timedOut { timedOut.setValue(true) }
      }
    }
    while !held.value { try await Task.sleep(for: .milliseconds(5)) }
  }

  /// Whether the ten seconds ran out before ``release()``.
  var heldTooLong: Bool { timedOut.value }

  func release() { released.signal() }
}
