import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

final class RetentionTests: XCTestCase {
  func testRestoresAfterCompactionEqualTheLiveStates() async throws {
    for backend in try await Backends.all(.init(snapshotInterval: 10)) {
      try await assertRestoresAfterCompaction(
        try XCTUnwrap(backend.journal as? any RetainableJournal, backend.name))
    }
  }

  private func assertRestoresAfterCompaction(_ journal: any RetainableJournal) async throws {
    let live = try await recordScriptedSession("long", into: journal, count: 60)
    let head = try await journal.headSequence(session: "long")

    let dryRun = try await journal.compact("long", keepSnapshots: 2, dryRun: true)
    XCTAssertFalse(dryRun.isEmpty)
    let headSequenceResult = try await journal.headSequence(session: "long")
    XCTAssertEqual(headSequenceResult, head, "a dry run drops nothing")
    let sequenceResult1 = try await replayer(journal).restore(session: "long", at: .sequence(1)).isComplete
    XCTAssertTrue(sequenceResult1)
    XCTAssertFalse(dryRun.applied)

    let plan = try await journal.compact("long", keepSnapshots: 2, dryRun: false)
    let oldestKept = try XCTUnwrap(plan.keptSnapshots.first)
    let replayer = replayer(journal)
    for sequence in oldestKept...head {
      let sequenceResult = try await replayer.restore(session: "long", at: .sequence(sequence)).state
      XCTAssertEqual(
        sequenceResult, live[sequence])
    }
    let verifyResult = try await replayer.verify(session: "long", from: oldestKept).isClean
    XCTAssertTrue(verifyResult)
    XCTAssertTrue(plan.applied)
    XCTAssertEqual(plan.droppedEntries, 1...oldestKept)
    let check = try await journal.verifyStorage(session: "long", maxProblemsPerSession: 20)
    XCTAssertTrue(check.isClean, "\(check.sessions.flatMap(\.problems))")
    XCTAssertEqual(check.sessions.first?.baseSequence, oldestKept)
    let journalBoundsResult = try await journal.journalBounds(session: "long").base
    XCTAssertEqual(journalBoundsResult, oldestKept)
    await XCTAssertThrowsErrorAsync({
      try await replayer.restore(session: "long", at: .sequence(oldestKept - 1))
    }) {
      XCTAssertTrue("\($0)".contains("compacted"), "\($0)")
    }
  }
}
