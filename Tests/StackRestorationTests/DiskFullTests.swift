import GRDB
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
@testable import StackJournalCore
@testable import StackStorage
import XCTest

final class DiskFullTests: XCTestCase {
  /// A full disk (simulated with SQLite's page limit) rejects the action with a clear error,
  /// keeps everything recorded before, and recording resumes once there is room.
  func testAFullDiskRejectsTheActionAndLosesNothing() async throws {
    let test = try TestJournal.onDisk()
    let store = try await RecordingStore.open(
      session: "full", journal: test.journal, initialState: DemoScript.deepLink
    ) {
      RootFeature()
    }
    try await store.send(.pushCounterTapped(count: 1))
    try setPageLimit(of: test.journal, toCurrentSize: true)

    var failure: StorageError?
    for number in 0..<200 {
      do {
        try await store.send(.pushNumberFactTapped(number: number))
        try await store.send(.path(.popFrom(id: store.state.path.ids.last!)))
      } catch let error as StorageError {
        failure = error
        break
      }
    }
    let error = try XCTUnwrap(failure, "the page limit was never reached")
    XCTAssertEqual(error.code, .diskFull)
    XCTAssertTrue(error.message.contains("disk is full"), error.message)

    let head = try test.journal.headSequence(session: "full")
    XCTAssertEqual(head, store.sequence, "the rejected action is not in the journal")
    let live = await store.state
    let restoreResult = try await Replayer(journal: test.journal) { RootFeature() }.restore(session: "full").state
    XCTAssertEqual(
      restoreResult, live,
      "the store kept the state the journal holds")

    try setPageLimit(of: test.journal, toCurrentSize: false)
    try await store.send(.pushCounterTapped(count: 2))
    XCTAssertEqual(try test.journal.headSequence(session: "full"), head + 1)
    XCTAssertTrue(try test.journal.verifyStorage().isClean)
    let verifyResult = try await Replayer(journal: test.journal) { RootFeature() }.verify(session: "full").isClean
    XCTAssertTrue(verifyResult)
  }

  private func setPageLimit(of journal: SQLiteJournal, toCurrentSize: Bool) throws {
    try journal.database.writeWithoutTransaction { db in
      if toCurrentSize {
        let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        try db.execute(sql: "PRAGMA max_page_count = \(pages + 2)")
      } else {
        try db.execute(sql: "PRAGMA max_page_count = 1073741823")
      }
    }
  }
}
