import Foundation
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackStorage

/// `InspectableJournal.sessionStacks`, what `show` prints: one read transaction, one view of
/// the database, on every backend.
final class SessionStacksTests: StorageTestCase {
  private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  /// A caller's own failure, to see it come back unchanged.
  private struct Refused: Error, Equatable {
    var reason: String
  }

  /// Records `entries` pushes into a new session, one second apart from `t0`.
  private func record(
    _ journal: any JournalBackend, _ session: SessionID, entries: Int64
  ) async throws {
    _ = try await journal.createSession(
      session, initial: StateEncoding.encode(Root()), version: 1, metadata: nil,
      forkedFrom: nil, at: t0)
    var root = Root()
    for sequence in 1...entries {
      root.tabA.append(.counter(Counter(count: Int(sequence))))
      _ = try await journal.append(
        session: session, expectedSequence: sequence - 1,
        .test("push", state: root, at: t0.addingTimeInterval(Double(sequence))))
    }
  }

  /// Given a journal file of ten entries, when a read-only journal of it reads the stacks at a
  /// sequence, at a time and at the head, expect each read to be one transaction, `BEGIN`
  /// first and `COMMIT` last, in which the head is read once, and the stacks, bounds and time
  /// that the separate reads give.
  func testSessionStacksRunsOneReadTransaction() async throws {
    let path = directory.path("journal.sqlite")
    let session = SessionID("one-read")
    let writer = try SQLiteJournal(path: path, options: .init(snapshotInterval: 3))
    try await record(writer, session, entries: 10)
    try writer.close()
    let trace = StatementTrace()
    let journal = try SQLiteJournal(
      path: path, options: .init(readOnly: true, statementTrace: { trace.add($0) }))
    defer { try? journal.close() }
    _ = trace.take()  // what opening read

    let cases: [(StacksMoment, Int64)] = [
      (.sequence(7), 7), (.atOrBefore(t0.addingTimeInterval(4.5)), 4), (.sequence(10), 10),
    ]
    for (moment, sequence) in cases {
      let shown = try journal.sessionStacks(
        session: session, at: { _ in moment }, check: { _, _ in })
      let statements = trace.take()
      XCTAssertEqual(statements.filter { $0.hasPrefix("BEGIN") }.count, 1, "\(statements)")
      XCTAssertEqual(statements.filter { $0.hasPrefix("COMMIT") }.count, 1, "\(statements)")
      XCTAssertTrue(statements.first?.hasPrefix("BEGIN") == true, "\(statements)")
      XCTAssertTrue(statements.last?.hasPrefix("COMMIT") == true, "\(statements)")
      XCTAssertEqual(
        statements.filter { $0.contains(SessionRows.headColumn) }.count, 1, "\(statements)")

      XCTAssertEqual(shown.sequence, sequence)
      XCTAssertEqual(shown.stacks, try journal.stacks(session: session, at: sequence))
      XCTAssertEqual(
        shown.recordedAt, try journal.recordedAt(session: session, sequence: sequence))
      XCTAssertEqual(shown.bounds.head, 10)
      XCTAssertEqual(shown.bounds.base, 0)
      XCTAssertEqual(shown.bounds.lastEntrySequence, 10)
      XCTAssertEqual(shown.bounds.session.id, session)
      _ = trace.take()
    }
  }

  /// Given a session of five entries, when a writer appends a sixth while a reader is inside
  /// its read (between reading the session and finding the entry of a time after both), expect
  /// the reader to see one view: the head, the entry found, the stacks and the time all of
  /// five entries; a read after it sees six. On every backend that can be opened twice.
  func testSessionStacksSeesOneSnapshotWhileAWriterAppends() async throws {
    for backend in try await Backends.all(.init(snapshotInterval: 3)) where backend.canReopen {
      let name = backend.name
      let writer = backend.journal
      let session = SessionID("one-view")
      try await record(writer, session, entries: 5)
      let reopenResult = try await backend.reopen() as? any InspectableJournal
      let reader = try XCTUnwrap(reopenResult, name)
      var root = Root()
      for count in 1...6 { root.tabA.append(.counter(Counter(count: count))) }
      let sixth = try JournalEntryDraft.test("push", state: root, at: t0.addingTimeInterval(6))
      let later = t0.addingTimeInterval(60)
      let checked = StatementTrace()

      let shown = try await reader.sessionStacks(
        session: session,
        at: { bounds in
          XCTAssertEqual(bounds.head, 5, name)
          // The read holds its transaction (and, on PostgreSQL, its task) while another task
          // appends: this closure waits for it.
          let appended = waitFor { try await writer.append(session: session, expectedSequence: 5, sixth) }
          XCTAssertEqual(try appended.get(), 6, name)
          return .atOrBefore(later)
        },
        check: { bounds, sequence in checked.add("\(bounds.head) \(sequence)") })

      XCTAssertEqual(checked.take(), ["5 5"], name)
      XCTAssertEqual(shown.sequence, 5, name)
      XCTAssertEqual(shown.bounds.head, 5, name)
      XCTAssertEqual(shown.bounds.lastEntrySequence, 5, name)
      let stacksResult = try await reader.stacks(session: session, at: 5)
      XCTAssertEqual(shown.stacks, stacksResult, name)
      XCTAssertEqual(shown.stacks.first?.elements.count, 5, name)
      XCTAssertEqual(shown.recordedAt, t0.addingTimeInterval(5), name)

      let after = try await reader.sessionStacks(
        session: session, at: { _ in .atOrBefore(later) }, check: { _, _ in })
      XCTAssertEqual(after.sequence, 6, name)
      XCTAssertEqual(after.bounds.head, 6, name)
      XCTAssertEqual(after.stacks.first?.elements.count, 6, name)
      try await reader.close()
    }
  }

  /// Given a session of three entries, expect: what `moment` or `check` throws back unchanged
  /// (and the stacks not read after `check` refused), an unknown session, a sequence beyond
  /// the head and a time before the session's creation refused with the journal's errors, and
  /// the journal still reading afterwards. On every backend.
  func testSessionStacksFailures() async throws {
    try await forEachBackend { journal, name in
      let session = SessionID("failures")
      try await record(journal, session, entries: 3)
      let reader = try XCTUnwrap(journal as? any InspectableJournal, name)
      let beforeCreation = t0.addingTimeInterval(-1)

      do {
        _ = try await reader.sessionStacks(
          session: session, at: { _ in throw Refused(reason: "moment") }, check: { _, _ in })
        XCTFail("a refused moment was not thrown back", file: #filePath, line: #line)
      } catch { XCTAssertEqual(error as? Refused, Refused(reason: "moment"), name) }

      let checked = StatementTrace()
      do {
        _ = try await reader.sessionStacks(
          session: session, at: { _ in .sequence(99) },
          check: { _, sequence in
            checked.add("\(sequence)")
            throw Refused(reason: "check")
          })
        XCTFail("a refused check was not thrown back")
      } catch { XCTAssertEqual(error as? Refused, Refused(reason: "check"), name) }
      XCTAssertEqual(checked.take(), ["99"], name)

      await assertStorageError(.unknownSession) {
        try await reader.sessionStacks(
          session: SessionID("nobody"), at: { _ in .sequence(0) }, check: { _, _ in })
      }
      await assertStorageError(.sequenceOutOfRange) {
        try await reader.sessionStacks(session: session, at: { _ in .sequence(4) }, check: { _, _ in })
      }
      await assertStorageError(.sequenceOutOfRange) {
        try await reader.sessionStacks(
          session: session, at: { _ in .atOrBefore(beforeCreation) },
          check: { _, _ in })
      }

      let shown = try await reader.sessionStacks(
        session: session, at: { _ in .sequence(2) }, check: { _, _ in })
      XCTAssertEqual(shown.stacks.first?.elements.count, 2, name)
      XCTAssertEqual(shown.recordedAt, t0.addingTimeInterval(2), name)
    }
  }
}

/// Runs `body` in a task of its own and blocks the calling thread until it is done: for a test
/// closure that the journal calls synchronously inside a read.
private func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T)
  -> Result<T, any Error>
{
  let done = DispatchSemaphore(value: 0)
  let box = LockIsolated<Result<T, any Error>?>(nil)
  Task.detached {
    let result: Result<T, any Error>
    do { result = .success(try await body()) } catch { result = .failure(error) }
    box.setValue(result)
    done.signal()
  }
  done.wait()
  return box.value!
}
