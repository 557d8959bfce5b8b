import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

final class RetentionTests: XCTestCase {
  func testRestoresAfterCompactionEqualTheLiveStates() async throws {
    let test = try TestJournal.onDisk(snapshotInterval: 10)
    let live = try await recordScriptedSession("long", into: test.journal, count: 60)
    let head = try test.journal.headSequence(session: "long")

    let dryRun = try JournalRetention().compact(
          "long", keepSnapshots: 2, dryRun: true, in: test.journal)
    XCTAssertFalse(dryRun.isEmpty)
    XCTAssertEqual(try test.journal.headSequence(session: "long"), head, "a dry run drops nothing")
    XCTAssertTrue(try replayer(test.journal).restore(session: "long", at: .sequence(1)).isComplete)

    let plan = try JournalRetention().compact(
          "long", keepSnapshots: 2, dryRun: false, in: test.journal)
    let oldestKept = try XCTUnwrap(plan.keptSnapshots.first)
    let replayer = replayer(test.journal)
    for sequence in oldestKept...head {
      XCTAssertEqual(
        try replayer.restore(session: "long", at: .sequence(sequence)).state, live[sequence])
    }
    XCTAssertTrue(try replayer.verify(session: "long", from: oldestKept).isClean)
    XCTAssertThrowsError(try replayer.restore(session: "long", at: .sequence(oldestKept - 1))) {
      XCTAssertTrue("\($0)".contains("compacted"), "\($0)")
    }
  }
}
