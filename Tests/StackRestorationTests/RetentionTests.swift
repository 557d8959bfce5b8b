import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

final class RetentionTests: XCTestCase {
  func testRestoresAfterCompactionEqualTheLiveStates() async throws {
    for backend in try Backends.all(.init(snapshotInterval: 10)) {
      try await assertRestoresAfterCompaction(
        try XCTUnwrap(backend.journal as? any RetainableJournal, backend.name))
    }
  }

  private func assertRestoresAfterCompaction(_ journal: any RetainableJournal) async throws {
    let live = try await recordScriptedSession("long", into: journal, count: 60)
    let head = try journal.headSequence(session: "long")

    let dryRun = try journal.compact("long", keepSnapshots: 2, dryRun: true)
    XCTAssertFalse(dryRun.isEmpty)
    XCTAssertEqual(try journal.headSequence(session: "long"), head, "a dry run drops nothing")
    XCTAssertTrue(try replayer(journal).restore(session: "long", at: .sequence(1)).isComplete)
    XCTAssertFalse(dryRun.applied)

    let plan = try journal.compact("long", keepSnapshots: 2, dryRun: false)
    let oldestKept = try XCTUnwrap(plan.keptSnapshots.first)
    let replayer = replayer(journal)
    for sequence in oldestKept...head {
      XCTAssertEqual(
        try replayer.restore(session: "long", at: .sequence(sequence)).state, live[sequence])
    }
    XCTAssertTrue(try replayer.verify(session: "long", from: oldestKept).isClean)
    XCTAssertTrue(plan.applied)
    XCTAssertEqual(plan.droppedEntries, 1...oldestKept)
    let check = try journal.verifyStorage(session: "long", maxProblemsPerSession: 20)
    XCTAssertTrue(check.isClean, "\(check.sessions.flatMap(\.problems))")
    XCTAssertEqual(check.sessions.first?.baseSequence, oldestKept)
    XCTAssertEqual(try journal.journalBounds(session: "long").base, oldestKept)
    XCTAssertThrowsError(try replayer.restore(session: "long", at: .sequence(oldestKept - 1))) {
      XCTAssertTrue("\($0)".contains("compacted"), "\($0)")
    }
  }
}
