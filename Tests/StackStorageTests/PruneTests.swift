import Foundation
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class PruneTests: StorageTestCase {
  func testPruningAPlanKeepsSessionsThatChangedSinceItWasMade() async throws {
    try await forEachBackend { backend, name in
      let journal = try XCTUnwrap(backend as? any RetainableJournal, name)
      let t0 = Date(timeIntervalSince1970: 1_700_000_000)
      var root = Root()
      for id in ["active", "appended", "idle"] {
        _ = try await journal.createSession(
          SessionID(id), initial: StateEncoding.encode(root), version: 1, metadata: nil,
          forkedFrom: nil, at: t0)
      }
      let criteria = PruneCriteria(idleBefore: t0.addingTimeInterval(3600))
      let planned = try await journal.prune(criteria, dryRun: true)
      XCTAssertEqual(planned.sessions.map(\.info.id), ["active", "appended", "idle"])

      // Between the plan and the deletion, an app records into two of the sessions: one is no
      // longer idle, the other still is but holds an entry the plan did not see.
      root.tabA.append(.home)
      _ = try await journal.append(
        session: "active", expectedSequence: 0, .test("push", state: root, at: Date()))
      _ = try await journal.append(
        session: "appended", expectedSequence: 0,
        .test("push", state: root, at: t0.addingTimeInterval(60)))

      let pruned = try await journal.prune(planned)
      XCTAssertTrue(pruned.applied)
      XCTAssertEqual(pruned.sessions.map(\.info.id), ["idle"])
      XCTAssertEqual(pruned.changed, ["active", "appended"])
      let mapResult1 = try await journal.sessions().map(\.id)
      XCTAssertEqual(mapResult1, ["active", "appended"])
      let headSequenceResult1 = try await journal.headSequence(session: "active")
      XCTAssertEqual(headSequenceResult1, 1)
      let headSequenceResult = try await journal.headSequence(session: "appended")
      XCTAssertEqual(headSequenceResult, 1)
      let headStacksResult = try await journal.headStacks(session: "appended").first?.elements.count
      XCTAssertEqual(headStacksResult, 1)
    }
  }

  func testPruningAPlanDeletesNoSessionItDidNotList() async throws {
    try await forEachBackend { backend, name in
      let journal = try XCTUnwrap(backend as? any RetainableJournal, name)
      _ = try await journal.createSession("listed", initial: StateEncoding.encode(Root()), version: 1)
      let planned = try await journal.prune(PruneCriteria(emptyOnly: true), dryRun: true)
      _ = try await journal.createSession("later", initial: StateEncoding.encode(Root()), version: 1)

      let pruned = try await journal.prune(planned)
      XCTAssertEqual(pruned.sessions.map(\.info.id), ["listed"])
      XCTAssertEqual(pruned.changed, [])
      let mapResult = try await journal.sessions().map(\.id)
      XCTAssertEqual(mapResult, ["later"])
    }
  }
}
