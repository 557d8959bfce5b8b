import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class SnapshotTests: StorageTestCase {
  func testSnapshotsAreWrittenEveryNEntriesInTheAppendTransaction() async throws {
    try await forEachBackend(.init(snapshotInterval: 10)) { journal, _ in
      var root = Root()
      _ = try await journal.createSession("s", initial: StateEncoding.encode(root), version: 1)
      var states: [Int64: Root] = [0: root]
      for sequence in Int64(1)...35 {
        root.tabA.append(.counter(Counter(count: Int(sequence))))
        if sequence % 3 == 0, let id = root.tabA.ids.first { root.tabA.pop(from: id) }
        states[sequence] = root
        _ = try await journal.append(
          session: "s", expectedSequence: sequence - 1, .test("x", state: root))
      }
      var stored: [Int64] = []
      var below: Int64 = 1_000
      while let snapshot = try await journal.snapshot(session: "s", atOrBelow: below) {
        stored.insert(snapshot.sequence, at: 0)
        below = snapshot.sequence - 1
      }
      XCTAssertEqual(stored, [0, 10, 20, 30])
      for (asked, found) in [(0, 0), (9, 0), (10, 10), (19, 10), (35, 30), (1_000, 30)]
        as [(Int64, Int64)]
      {
        let snapshotResult4 = try await journal.snapshot(session: "s", atOrBelow: asked)
        let snapshot = try XCTUnwrap(snapshotResult4)
        XCTAssertEqual(snapshot.sequence, found)
        let decoded = try JSONDecoder().decode(Root.self, from: snapshot.state)
        XCTAssertEqual(decoded, states[found])
        XCTAssertEqual(try durableJSON(decoded), try durableJSON(states[found]!), "next IDs")
        XCTAssertEqual(snapshot.stacks, try StateEncoding.encode(states[found]!).stacks)
      }
      let snapshotResult3 = try await journal.snapshot(session: "s", atOrBelow: -1)
      XCTAssertNil(snapshotResult3)
      for sequence in Int64(0)...35 {
        let stacksResult1 = try await journal.stacks(session: "s", at: sequence)
        let encodeResult1 = try await StateEncoding.encode(states[sequence]!).stacks
        XCTAssertEqual(
          stacksResult1,
          encodeResult1)
      }
      guard let journal = journal as? SQLiteJournal else { return }
      let plan = try await journal.database.read { db in
        try Row.fetchAll(
          db,
          sql: "EXPLAIN QUERY PLAN SELECT sequence FROM snapshots WHERE session = ? "
            + "AND sequence <= ? ORDER BY sequence DESC LIMIT 1",
          arguments: ["s", 5]
        ).map { $0["detail"] as String }.joined()
      }
      XCTAssertTrue(plan.contains("USING PRIMARY KEY") || plan.contains("INDEX"), plan)
      XCTAssertFalse(plan.contains("TEMP B-TREE"), plan)
    }
  }

  func testWrittenSnapshotsAreFoundAndNeverRewritten() async throws {
    try await forEachBackend(.init(snapshotInterval: 0)) { journal, _ in
      var root = Root()
      _ = try await journal.createSession("s", initial: StateEncoding.encode(root), version: 1)
      for sequence in Int64(0)..<20 {
        root.tabB.append(.home)
        _ = try await journal.append(session: "s", expectedSequence: sequence, .test("x", state: root))
      }
      let snapshotResult2 = try await journal.snapshot(session: "s", atOrBelow: 20)?.sequence
      XCTAssertEqual(snapshotResult2, 0)
      try await journal.writeSnapshot(
        session: "s", sequence: 20, state: StateEncoding.encode(root), version: 1)
      let snapshotResult1 = try await journal.snapshot(session: "s", atOrBelow: 25)?.sequence
      XCTAssertEqual(snapshotResult1, 20)
      try await journal.writeSnapshot(
        session: "s", sequence: 20, state: StateEncoding.encode(Root()), version: 2)
      let snapshotResult = try await journal.snapshot(session: "s", atOrBelow: 20)
      let kept = try XCTUnwrap(snapshotResult)
      XCTAssertEqual(kept.version, 1)
      let decoded = try JSONDecoder().decode(Root.self, from: kept.state)
      XCTAssertEqual(decoded, root)
      XCTAssertEqual(try durableJSON(decoded), try durableJSON(root), "next IDs")
      await assertStorageError(.sequenceOutOfRange) {
        try await journal.writeSnapshot(
          session: "s", sequence: 21, state: StateEncoding.encode(root), version: 1)
      }
      let stacksResult = try await journal.stacks(session: "s", at: 20)
      let encodeResult = try await StateEncoding.encode(root).stacks
      XCTAssertEqual(
        stacksResult, encodeResult)
    }
  }
}
