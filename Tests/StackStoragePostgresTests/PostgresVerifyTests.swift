#if PostgreSQL
  import Foundation
  import StackJournalDemo
  import StackJournalTestSupport
  import StackRestoration
  import StackStorage
  import Synchronization
  import XCTest

  @testable import StackJournalCore
@testable import StackStoragePostgres

  /// `verifyStorage` on PostgreSQL: the checks SQLite's verifier makes, on rows damaged behind
  /// the journal's back, and no false finding while an app appends.
  /// A task whose end can be polled.
  final class FinishingTask: Sendable {
    private final class Flag: Sendable {
      let done = Atomic(false)
    }
    private let task: Task<Void, any Error>
    private let flag = Flag()

    init(_ body: @escaping @Sendable () async throws -> Void) {
      let flag = self.flag
      task = Task {
        defer { flag.done.store(true, ordering: .sequentiallyConsistent) }
        try await body()
      }
    }

    var isFinished: Bool { flag.done.load(ordering: .sequentiallyConsistent) }
    var value: Void { get async throws { try await task.value } }
  }

  final class PostgresVerifyTests: PostgresTestCase {
    /// Records `count` demo actions into session `v` and returns the journal.
    private func recorded(count: Int, snapshotInterval: Int = 10) async throws -> PostgresJournal {
      let journal = try await PostgresJournal(
        url: url, options: .init(snapshotInterval: snapshotInterval))
      try await Self.record(count, session: "v", into: journal)
      return journal
    }

    private static func record(_ count: Int, session: SessionID, into journal: PostgresJournal)
      async throws
    {
      let store = try await RecordingStore.open(
        session: session, journal: journal, initialState: DemoScript.deepLink
      ) { RootFeature() }
      var generator = SeededGenerator(seed: 11)
      for _ in 0..<count {
        let state = await store.state
        try await store.send(DemoScript.nextAction(for: state, using: &generator)).finish()
        await store.waitForEffects()
      }
    }

    private func problems(_ journal: PostgresJournal) async throws -> [String] {
      let report = try await journal.verifyStorage(session: nil, maxProblemsPerSession: 20)
      return report.sessions.flatMap(\.problems).map(\.kind.name)
        + report.migrations.filter { !$0.isSound }.map { "migration \($0.name)" }
    }

    func testARecordedJournalVerifiesClean() async throws {
      let journal = try await recorded(count: 45)
      let report = try await journal.verifyStorage(session: "v", maxProblemsPerSession: 20)
      XCTAssertTrue(report.isClean, "\(report.sessions.flatMap(\.problems))")
      let session = try XCTUnwrap(report.sessions.first)
      let head = try await journal.headSequence(session: "v")
      XCTAssertEqual(Int64(session.checkedEntries), head)
      XCTAssertEqual(session.headSequence, head)
      XCTAssertEqual(session.checkedSnapshots, Int(head / 10) + 1, "the initial one and each 10th")
      XCTAssertEqual(report.migrations.map(\.version), Array(1...PostgresJournal.latestSchemaVersion))
      do {
        _ = try await journal.verifyStorage(session: "nope", maxProblemsPerSession: 5)
        XCTFail("verifying an unknown session did not throw")
      } catch {}
    }

    func testDamagedRowsAreReportedByKind() async throws {
      let journal = try await recorded(count: 45)
      let s = location.schema
      try await Self.record(25, session: "w", into: journal)
      let problemsResult1 = try await problems(journal)
      XCTAssertEqual(problemsResult1, [])
      _ = try await execute(["DELETE FROM \(s).journal WHERE session = 'v' AND sequence = 30"])
      var report = try await journal.verifyStorage(session: "v", maxProblemsPerSession: 20)
      XCTAssertEqual(report.sessions.first?.problems.first?.kind, .sequenceGap)
      XCTAssertEqual(report.sessions.first?.problems.first?.sequence, 31)
      // A delta that moves the next ID back does not apply to the stacks before it.
      _ = try await execute([
        "UPDATE \(s).journal SET delta = '{\"changes\":[{\"changed\":[],\"ids\":[],"
          + "\"nextID\":0,\"path\":\"path\",\"popped\":[],\"pushed\":[],"
          + "\"removed\":false}]}' WHERE session = 'w' AND sequence = 5"
      ])
      report = try await journal.verifyStorage(session: "w", maxProblemsPerSession: 20)
      XCTAssertEqual(report.sessions.first?.problems.first?.kind, .inconsistentDelta)
      XCTAssertEqual(report.sessions.first?.problems.first?.sequence, 5)
      _ = try await execute([
        "UPDATE \(s).journal SET payload = 'not json' WHERE session = 'w' AND sequence = 7",
        "UPDATE \(s).schema_migrations SET checksum = 'edited' WHERE version = 1",
      ])
      let found = try await problems(journal)
      XCTAssertTrue(found.contains("invalidData"), "\(found)")
      XCTAssertTrue(found.contains("migration 0001_initial.sql"), "\(found)")
      let verifyStorageResult = try await journal.verifyStorage(session: nil, maxProblemsPerSession: 1).isClean
      XCTAssertFalse(verifyStorageResult)
    }

    func testASessionThatDoesNotVerifyIsNotCompacted() async throws {
      let journal = try await recorded(count: 35)
      let s = location.schema
      _ = try await execute(["DELETE FROM \(s).journal WHERE session = 'v' AND sequence = 30"])
      let counts = "SELECT (SELECT count(*) FROM \(s).journal)::text || '/' || "
        + "(SELECT count(*) FROM \(s).snapshots)::text"
      let before = try await execute([counts])
      let error = await assertStorageError(.inconsistentDelta) {
        try await journal.compact("v", keepSnapshots: 1, dryRun: false)
      }
      XCTAssertTrue(error?.message.contains("was not compacted") ?? false)
      let after = try await execute([counts])
      XCTAssertEqual(before, after, "nothing was deleted")
    }

    func testSnapshotAndStackRowDamageIsFound() async throws {
      let journal = try await recorded(count: 25)
      let s = location.schema
      _ = try await execute([
        "UPDATE \(s).snapshots SET stacks = '[]' WHERE session = 'v' AND sequence = 20"
      ])
      let found = try await problems(journal)
      XCTAssertEqual(Set(found), ["snapshotMismatch", "snapshotStateMismatch"])
      _ = try await execute([
        "UPDATE \(s).stacks SET next_id = next_id + 5 WHERE session = 'v'"
      ])
      let containsResult = try await problems(journal).contains("stackRowsMismatch")
      XCTAssertTrue(containsResult)
    }

    func testVerifyingWhileAnAppAppendsFindsNothing() async throws {
      let journal = try await recorded(count: 5, snapshotInterval: 7)
      let writer = try await PostgresJournal(url: url, options: .init(snapshotInterval: 7))
      let appending = FinishingTask { [writer] in
        try await PostgresVerifyTests.record(60, session: "v", into: writer)
      }
      // Verify again and again while the other journal appends: never a finding, and the
      // checks did overlap the appends (the head moved between rounds).
      var heads: Set<Int64> = []
      var rounds = 0
      repeat {
        rounds += 1
        let report = try await journal.verifyStorage(session: "v", maxProblemsPerSession: 20)
        XCTAssertTrue(report.isClean, "round \(rounds): \(report.sessions.flatMap(\.problems))")
        heads.insert(try XCTUnwrap(report.sessions.first).headSequence)
      } while rounds < 5 || (rounds < 500 && !appending.isFinished)
      try await appending.value
      XCTAssertGreaterThan(heads.count, 2, "verification ran while the head moved")
      let problemsResult = try await problems(journal)
      XCTAssertEqual(problemsResult, [])
      let headSequenceResult = try await journal.headSequence(session: "v")
      XCTAssertGreaterThanOrEqual(headSequenceResult, 65)
    }
  }
#endif
