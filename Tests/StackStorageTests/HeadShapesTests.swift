import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// An append checks its delta against the stack shapes the journal kept from its own last append
/// to the session (`HeadShapes`) instead of reading the rows, but only while those are the rows:
/// these tests change the rows behind the journal's back and expect the append to see it.
final class HeadShapesTests: StorageTestCase {
  private let home = #"{"home":{}}"#

  /// The statements since the last call that read a stack table.
  private func stackReads(_ statements: [String]) -> [String] {
    statements.filter {
      $0.hasPrefix("SELECT") && ($0.contains("FROM stacks") || $0.contains("FROM stack_elements"))
    }
  }

  private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  private func entry(_ change: StackChange, at time: Date = Date()) -> JournalEntryDelta {
    JournalEntryDelta(
      type: "test", version: 1, payload: Data("{}".utf8), delta: StackDelta(changes: [change]),
      recordedAt: time)
  }

  /// A push of `pushed` onto `tabA`, which holds `ids`.
  private func push(
    _ pushed: StackElementID, onto ids: [StackElementID], at time: Date = Date()
  ) -> JournalEntryDelta {
    entry(
      StackChange(
        path: "tabA", nextID: StackElementID(generation: pushed.generation + 1),
        ids: ids + [pushed], pushed: [StoredElement(id: pushed, caseName: "home", state: home)]),
      at: time)
  }

  /// A change of element `id`'s state in `tabA`, holding `ids` with next ID `next`.
  private func change(
    _ id: StackElementID, in ids: [StackElementID], next: StackElementID, at time: Date = Date()
  ) -> JournalEntryDelta {
    entry(
      StackChange(
        path: "tabA", nextID: next, ids: ids,
        changed: [StoredElement(id: id, caseName: "home", state: #"{"home":{"x":1}}"#)]),
      at: time)
  }

  /// A session whose `tabA` holds element 0.
  private func createSession(_ id: SessionID, _ journal: SQLiteJournal) async throws {
    var root = Root()
    root.tabA.append(.home)
    _ = try await journal.createSession(id, initial: try StateEncoding.encode(root), version: 1)
  }

  /// A session `s` whose `tabA` holds element 0, then element 1 pushed at `t0` by an append of
  /// `journal` (which keeps the shapes of that head).
  private func sessionWithTwoElements(_ journal: SQLiteJournal) async throws {
    try await createSession("s", journal)
    let sequence = try await journal.append(
      session: "s", expectedSequence: 0, push(1, onto: [0], at: t0))
    XCTAssertEqual(sequence, 1)
  }

  /// The statements since the last call that read a session's head (its row and last entry).
  private func headReads(_ statements: [String]) -> [String] {
    statements.filter { $0.hasPrefix("SELECT s.number") }
  }

  /// Given a session whose last append this journal wrote, when the journal appends again,
  /// expect no read of the head or the stack rows; and when another journal on the file
  /// appended in between, expect this one to read them.
  func testAnAppendReadsTheStackRowsOnlyWhenAnotherConnectionWrote() async throws {
    let path = directory.path("journal.sqlite")
    let trace = StatementTrace()
    let journal = try SQLiteJournal(path: path, options: .init(statementTrace: { trace.add($0) }))
    defer { try? journal.close() }
    try await sessionWithTwoElements(journal)
    var statements = trace.take()
    XCTAssertFalse(stackReads(statements).isEmpty, "the first append of the session reads rows")
    XCTAssertFalse(headReads(statements).isEmpty, "and the head")

    _ = try await journal.append(
      session: "s", expectedSequence: 1, change(1, in: [0, 1], next: 2))
    statements = trace.take()
    XCTAssertEqual(stackReads(statements), [], "the journal's own head is not read again")
    XCTAssertEqual(headReads(statements), [])

    let other = try SQLiteJournal(path: path)
    _ = try await other.append(session: "s", expectedSequence: 2, push(2, onto: [0, 1]))
    try other.close()
    _ = try await journal.append(
      session: "s", expectedSequence: 3, change(2, in: [0, 1, 2], next: 3))
    statements = trace.take()
    XCTAssertFalse(stackReads(statements).isEmpty, "another connection wrote: the rows are read")
    XCTAssertFalse(headReads(statements).isEmpty, "and the head")
  }

  /// Given a session whose last append this journal wrote, when another journal on the file
  /// appended, expect an append that expects the head this journal kept to be refused with the
  /// head the file holds.
  func testAnAppendAfterAnotherJournalsAppendConflicts() async throws {
    let path = directory.path("journal.sqlite")
    let journal = try SQLiteJournal(path: path)
    defer { try? journal.close() }
    try await sessionWithTwoElements(journal)
    let other = try SQLiteJournal(path: path)
    _ = try await other.append(session: "s", expectedSequence: 1, push(2, onto: [0, 1]))
    try other.close()

    await assertStorageError(.sequenceConflict) {
      try await journal.append(session: "s", expectedSequence: 1, change(1, in: [0, 1], next: 2))
    }
    let sequence = try await journal.append(
      session: "s", expectedSequence: 2, change(2, in: [0, 1, 2], next: 3))
    XCTAssertEqual(sequence, 3)
  }

  /// Given two sessions whose identifiers are `café` written with `é` (NFC) and with `e` and a
  /// combining accent (NFD), which Swift's `String` calls equal, when appends to them alternate
  /// in one journal, expect each append to go to its own session: the head kept for one is
  /// never taken for the other's.
  func testUnicodeEquivalentSessionsKeepTheirOwnHeads() async throws {
    let journal = try makeJournal(.onDisk)
    defer { try? journal.close() }
    let composed = SessionID("caf\u{E9}")
    let decomposed = SessionID("cafe\u{301}")
    XCTAssertEqual(composed.rawValue, decomposed.rawValue, "equal as Swift strings")
    XCTAssertNotEqual(composed, decomposed, "two identifiers")
    try await createSession(composed, journal)
    try await createSession(decomposed, journal)
    _ = try await journal.append(session: decomposed, expectedSequence: 0, push(1, onto: [0]))
    _ = try await journal.append(session: composed, expectedSequence: 0, push(1, onto: [0]))
    _ = try await journal.append(
      session: decomposed, expectedSequence: 1, push(2, onto: [0, 1]))
    XCTAssertEqual(try journal.headSequence(session: composed), 1)
    XCTAssertEqual(try journal.headSequence(session: decomposed), 2)
    XCTAssertEqual(try journal.headStacks(session: composed).first?.ids, [0, 1])
    XCTAssertEqual(try journal.headStacks(session: decomposed).first?.ids, [0, 1, 2])
    let report = try journal.verifyStorage()
    XCTAssertTrue(report.isClean, "\(report)")
  }

  /// Given two appends to one session, the second begun after the first (in their
  /// transactions), when the first keeps its head after the second kept its own, expect the
  /// second's head to stay kept: appends keep after their commits, in whatever order their tasks
  /// get there.
  func testAnOlderHeadKeptLateDoesNotReplaceANewerOne() {
    let heads = HeadShapes()
    let first = heads.begin("s", dataVersion: 1)
    let second = heads.begin("s", dataVersion: 1)
    heads.keep(head(sequence: 2, ticket: second.ticket), of: "s")
    heads.keep(head(sequence: 1, ticket: first.ticket), of: "s")
    XCTAssertEqual(heads.begin("s", dataVersion: 1).kept?.sequence, 2)
  }

  /// Given an append begun before another write of the journal (which forgets the kept heads in
  /// its own transaction), when the append keeps its head after that write, expect nothing
  /// kept; one begun after the write keeps its head, which the next append takes (not copies).
  func testAHeadOfAnAppendThatBeganBeforeAnotherWriteIsNotKept() {
    let heads = HeadShapes()
    let before = heads.begin("s", dataVersion: 1)
    heads.forgetAll()
    heads.keep(head(sequence: 1, ticket: before.ticket), of: "s")
    XCTAssertNil(heads.begin("s", dataVersion: 1).kept, "kept after a write it began before")

    let after = heads.begin("s", dataVersion: 1)
    heads.keep(head(sequence: 1, ticket: after.ticket), of: "s")
    XCTAssertEqual(heads.begin("s", dataVersion: 1).kept?.sequence, 1)
    XCTAssertNil(heads.begin("s", dataVersion: 1).kept, "taken, not copied")
  }

  /// Given a kept head, when another connection committed (the data version moved), expect the
  /// next append not to take it.
  func testAHeadIsNotTakenAfterAnotherConnectionCommitted() {
    let heads = HeadShapes()
    let append = heads.begin("s", dataVersion: 1)
    heads.keep(head(sequence: 1, ticket: append.ticket), of: "s")
    XCTAssertNil(heads.begin("s", dataVersion: 2).kept)
  }

  private func head(sequence: Int64, ticket: UInt64) -> HeadShapes.Head {
    HeadShapes.Head(
      number: 1, sequence: sequence, latestAt: "2026-11-26T00:00:00.000000Z", dataVersion: 1,
      ticket: ticket, shapes: [:])
  }


  /// Given a session whose last append this journal wrote, when another journal on the file pops
  /// element 1, expect this journal to refuse a delta that changes element 1 (which its own copy
  /// of the head still holds), and to take one that fits the rows.
  func testAnotherJournalsAppendIsSeen() async throws {
    let path = directory.path("journal.sqlite")
    let journal = try SQLiteJournal(path: path)
    defer { try? journal.close() }
    try await sessionWithTwoElements(journal)
    let other = try SQLiteJournal(path: path)
    _ = try await other.append(
      session: "s", expectedSequence: 1,
      entry(StackChange(path: "tabA", nextID: 2, ids: [0], popped: [1])))
    try other.close()

    await assertStorageError(.inconsistentDelta) {
      try await journal.append(session: "s", expectedSequence: 2, change(1, in: [0, 1], next: 2))
    }
    let sequence = try await journal.append(
      session: "s", expectedSequence: 2, push(2, onto: [0]))
    XCTAssertEqual(sequence, 3)
    let stacks = try await journal.headStacks(session: "s")
    XCTAssertEqual(stacks.first { $0.path == "tabA" }?.ids, [0, 2])
  }

  /// Given a session whose last append this journal wrote, when another connection deletes
  /// element 1's row without appending (the head does not move), expect this journal to refuse
  /// a delta that changes element 1, as it would have before it kept its copy.
  func testRowsChangedWithoutAnAppendAreSeen() async throws {
    let path = directory.path("journal.sqlite")
    let journal = try SQLiteJournal(path: path)
    defer { try? journal.close() }
    try await sessionWithTwoElements(journal)
    let queue = try DatabaseQueue(path: path)
    try await queue.write { db in
      try db.execute(sql: "DELETE FROM stack_elements WHERE session = 's' AND id = 1")
    }
    try queue.close()

    await assertStorageError(.inconsistentDelta) {
      try await journal.append(session: "s", expectedSequence: 1, change(1, in: [0, 1], next: 2))
    }
  }

  /// Given a session whose last append this journal wrote (element 1 pushed at `t0`), when the
  /// journal deletes it and imports in its place a session whose head has the same sequence and
  /// time but holds element 0 only, expect a delta that fits only the deleted session's stacks
  /// to be refused.
  func testASessionDeletedAndImportedAgainIsReadFromItsRows() async throws {
    let journal = try makeJournal(.onDisk)
    defer { try? journal.close() }
    try await createSession("other", journal)
    _ = try await journal.append(
      session: "other", expectedSequence: 0, change(0, in: [0], next: 1, at: t0))
    var export = Data()
    _ = try await SessionExporter().export("other", of: journal) { export.append($0) }
    let file = directory.path("other.ndjson")
    try export.write(to: URL(fileURLWithPath: file))

    try await sessionWithTwoElements(journal)
    try journal.deleteSession("s")
    _ = try SessionImporter().importSession(
      SessionExportFile.read(path: file), as: "s", into: journal)

    await assertStorageError(.inconsistentDelta) {
      try await journal.append(session: "s", expectedSequence: 1, change(1, in: [0, 1], next: 2))
    }
    _ = try await journal.append(session: "s", expectedSequence: 1, push(1, onto: [0]))
  }
}
