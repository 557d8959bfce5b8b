import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class JournalTests: StorageTestCase {
  func testTenThousandAppendsAreGaplessAndTheStacksAtAnySequenceRebuildFromTheJournalAlone()
    async throws
  {
    try await forEachBackend { journal, storage in
      let session: SessionID = "long"
      var simulation = Simulation(seed: 42)
      let checkpoints: Set<Int64> = [0, 1, 5_000, 10_000]
      var live: [Int64: [StackRecord]] = [:]
      let initial = try StateEncoding.encode(simulation.root)
      live[0] = initial.stacks
      _ = try await journal.createSession(session, initial: initial, version: 1)

      for expected in Int64(0)..<10_000 {
        let (type, payload) = simulation.step()
        let state = try StateEncoding.encode(simulation.root)
        let sequence = try await journal.append(
          session: session, expectedSequence: expected,
          JournalEntryDraft(type: type, version: 1, payload: payload, state: state))
        XCTAssertEqual(sequence, expected + 1)
        if checkpoints.contains(sequence) { live[sequence] = state.stacks }
      }

      // Sequences 1…10,000, no gap.
      var sequences: [Int64] = []
      try await journal.entries(session: session) { entry in
        sequences.append(entry.sequence)
        return true
      }
      XCTAssertEqual(sequences, Array(1...10_000), "\(storage)")
      let headSequenceResult5 = try await journal.headSequence(session: session)
      XCTAssertEqual(headSequenceResult5, 10_000)
      let sessionResult2 = try await journal.session(session)?.entryCount
      XCTAssertEqual(sessionResult2, 10_000, storage)
      if let journal = journal as? SQLiteJournal {
        let range = try journal.database.read { db in
          try Row.fetchOne(
            db,
            sql: "SELECT count(*), min(sequence), max(sequence) FROM journal "
              + "WHERE session_number = (SELECT number FROM sessions WHERE id = ?)",
            arguments: [session.rawValue])!
        }
        XCTAssertEqual([range[0], range[1], range[2]] as [Int64], [10_000, 1, 10_000])
      }

      // From the snapshots plus deltas, and from snapshot 0 plus every delta: no reducer.
      for sequence in checkpoints.sorted() {
        let stacksResult = try await journal.stacks(session: session, at: sequence)
        XCTAssertEqual(
          stacksResult, live[sequence],
          "\(storage) at \(sequence)")
      }
      let first = try await journal.snapshot(session: session, atOrBelow: 0)
      var replayed = try XCTUnwrap(first).stacks
      XCTAssertEqual(replayed, live[0])
      try await journal.entries(session: session) { entry in
        try entry.delta.apply(to: &replayed)
        if let expected = live[entry.sequence] {
          XCTAssertEqual(replayed, expected, "\(storage) replayed to \(entry.sequence)")
        }
        return true
      }
      let headStacksResult2 = try await journal.headStacks(session: session)
      XCTAssertEqual(headStacksResult2, live[10_000])
      if let journal = journal as? SQLiteJournal {
        XCTAssertEqual(try journal.integrityProblems(), [])
      }
    }
  }

  func testAStaleWriterGetsAConflictAndNothingIsWritten() async throws {
    for backend in try await Backends.all() {
      let first = backend.journal
      // On disk and on a server the second writer is another connection pool.
      let second = try await backend.reopen()
      var root = Root()
      _ = try await first.createSession("s", initial: StateEncoding.encode(root), version: 1)
      root.tabA.append(.home)
      let testResult1 = try await first.append(session: "s", expectedSequence: 0, .test("a", state: root))
      XCTAssertEqual(
        testResult1, 1)

      let headBefore = try await second.headStacks(session: "s")
      var stale = root
      stale.tabB.append(.counter(Counter()))
      let error = await assertStorageError(.sequenceConflict) {
        try await second.append(session: "s", expectedSequence: 0, .test("b", state: stale))
      }
      XCTAssertTrue(
        error?.message.contains("at sequence 1") ?? false, "\(String(describing: error))")
      XCTAssertTrue(error?.message.contains("expected 0") ?? false)
      await assertStorageError(.sequenceConflict) {
        try await second.append(session: "s", expectedSequence: 5, .test("b", state: stale))
      }

      let headSequenceResult4 = try await first.headSequence(session: "s")
      XCTAssertEqual(headSequenceResult4, 1)
      let headStacksResult1 = try await first.headStacks(session: "s")
      XCTAssertEqual(headStacksResult1, headBefore)
      var types: [String] = []
      try await first.entries(session: "s") {
        types.append($0.type)
        return true
      }
      XCTAssertEqual(types, ["a"])
      let testResult = try await second.append(session: "s", expectedSequence: 1, .test("b", state: stale))
      XCTAssertEqual(
        testResult, 2)
    }
  }

  func testSessionsInOneFileDoNotSeeEachOthersEntries() async throws {
    try await forEachBackend { journal, storage in
      let ids: [SessionID] = ["alpha", "beta", "gamma"]
      var roots = [Root](repeating: Root(), count: ids.count)
      for id in ids {
        _ = try await journal.createSession(id, initial: StateEncoding.encode(Root()), version: 1)
      }
      for round in 0..<20 {
        for (index, id) in ids.enumerated() where round % (index + 1) == 0 {
          roots[index].tabA.append(.counter(Counter(count: index)))
          let head = try await journal.headSequence(session: id)
          _ = try await journal.append(
            session: id, expectedSequence: head,
            .test("\(id).push", payload: #"{"session":"\#(id)"}"#, state: roots[index]))
        }
      }
      for (index, id) in ids.enumerated() {
        var count = 0
        try await journal.entries(session: id) { entry in
          XCTAssertEqual(entry.session, id)
          XCTAssertEqual(entry.type, "\(id).push")
          XCTAssertEqual(String(decoding: entry.payload, as: UTF8.self), #"{"session":"\#(id)"}"#)
          count += 1
          XCTAssertEqual(entry.sequence, Int64(count))
          return true
        }
        XCTAssertEqual(count, (0..<20).filter { $0 % (index + 1) == 0 }.count, "\(storage) \(id)")
        let headStacksResult = try await journal.headStacks(session: id)
        let encodeResult = try await StateEncoding.encode(roots[index]).stacks
        XCTAssertEqual(
          headStacksResult, encodeResult)
      }

      try await journal.deleteSession("beta")
      let mapResult = try await journal.sessions().map(\.id)
      XCTAssertEqual(mapResult, ["alpha", "gamma"])
      let headSequenceResult3 = try await journal.headSequence(session: "alpha")
      XCTAssertEqual(headSequenceResult3, 20)
      await assertStorageError(.unknownSession) { try await journal.headSequence(session: "beta") }
      let sessionResult1 = try await journal.session("beta")
      XCTAssertNil(sessionResult1)
      await assertStorageError(.unknownSession) { try await journal.headStacks(session: "beta") }
      await assertStorageError(.unknownSession) { try await journal.snapshot(session: "beta", atOrBelow: 0) }
      _ = try await journal.createSession("beta", initial: StateEncoding.encode(Root()), version: 1)
      let headSequenceResult2 = try await journal.headSequence(session: "beta")
      XCTAssertEqual(headSequenceResult2, 0, "\(storage): nothing left")
      let sessionResult = try await journal.session("beta")?.entryCount
      XCTAssertEqual(sessionResult, 0)
      try await journal.deleteSession("beta")
      if let journal = journal as? SQLiteJournal {
        try await journal.database.read { db in
          for table in ["snapshots", "stacks", "stack_elements"] {
            XCTAssertEqual(
              try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE session = 'beta'"),
              0, table)
          }
          // The journal keys its rows by session number: none is left of a session gone.
          XCTAssertEqual(
            try Int.fetchOne(
              db,
              sql: "SELECT count(*) FROM journal "
                + "WHERE session_number NOT IN (SELECT number FROM sessions)"),
            0)
        }
      }
    }
  }

  func testEntriesAreStreamedInPagesAndCanStopAndBeBounded() async throws {
    try await forEachBackend { journal, _ in
      var root = Root()
      _ = try await journal.createSession("s", initial: StateEncoding.encode(root), version: 1)
      let count = SQLiteJournal.entryPageSize * 2 + 10
      for sequence in 0..<count {
        root.selectedTab = "\(sequence)"
        _ = try await journal.append(
          session: "s", expectedSequence: Int64(sequence), .test("select", state: root))
      }
      var seen: [Int64] = []
      try await journal.entries(session: "s", after: 250, through: 600) { entry in
        seen.append(entry.sequence)
        // The body may call the journal: it runs outside any database access.
        let headSequenceResult1 = try await journal.headSequence(session: "s")
        XCTAssertEqual(headSequenceResult1, Int64(count))
        return true
      }
      XCTAssertEqual(seen, Array(251...522))
      seen = []
      try await journal.entries(session: "s", after: 0, through: nil) { entry in
        seen.append(entry.sequence)
        return entry.sequence < 300
      }
      XCTAssertEqual(seen.last, 300)
      XCTAssertTrue(seen.allSatisfy { $0 <= 300 })
      try await journal.entries(session: "s", after: Int64(count)) { _ in
        XCTFail("no entry after the head")
        return true
      }
      await assertStorageError(.unknownSession) {
        try await journal.entries(session: "nobody") { _ in true }
      }
      await assertStorageError(.unknownSession) {
        try await journal.entries(session: "nobody", after: 5, through: 5) { _ in true }
      }
    }
  }

  func testEntriesCarryTypeVersionPayloadTimeAndDelta() async throws {
    try await forEachBackend { journal, _ in
      var root = Root()
      let created = Date(timeIntervalSince1970: 1_738_315_800)
      _ = try await journal.createSession(
        "s", initial: StateEncoding.encode(root), version: 3, metadata: nil, forkedFrom: nil,
        at: created)
      root.tabA.append(.counter(Counter(count: 2)))
      let at = Date(timeIntervalSince1970: 1_738_315_801.2345)
      _ = try await journal.append(
        session: "s", expectedSequence: 0,
        .test("tabA.push", payload: #"{"push":{"id":0}}"#, version: 3, state: root, at: at))
      var entries: [JournalEntry] = []
      try await journal.entries(session: "s") {
        entries.append($0)
        return true
      }
      let entry = try XCTUnwrap(entries.first)
      XCTAssertEqual(entry.type, "tabA.push")
      XCTAssertEqual(entry.version, 3)
      XCTAssertEqual(entry.payload, Data(#"{"push":{"id":0}}"#.utf8))
      XCTAssertEqual(entry.recordedAt, Timestamp.rounded(at))
      XCTAssertEqual(entry.recordedAt.timeIntervalSince1970, 1_738_315_801.235, accuracy: 0.0001)
      XCTAssertEqual(
        entry.delta,
        StackDelta(changes: [
          StackChange(
            path: "tabA", nextID: 1, ids: [0],
            pushed: [
              StoredElement(
                id: 0, caseName: "counter", state: #"{"counter":{"_0":{"count":2}}}"#)
            ])
        ]))
      if let journal = journal as? SQLiteJournal {
        let stored = try journal.database.read { db in
          try Row.fetchOne(db, sql: "SELECT recorded_at, payload, type FROM journal")!
        }
        XCTAssertEqual(stored[0] as String, "2025-01-31T09:30:01.235Z")
        XCTAssertEqual(stored[1] as String, #"{"push":{"id":0}}"#)
      }
    }
  }

  func testAnActionThatChangesNoStackRecordsAnEmptyDelta() async throws {
    try await forEachBackend { journal, _ in
      var root = Root()
      root.tabA.append(.home)
      _ = try await journal.createSession("s", initial: StateEncoding.encode(root), version: 1)
      root.selectedTab = "tabB"
      _ = try await journal.append(session: "s", expectedSequence: 0, .test("selectTab", state: root))
      var deltas: [StackDelta] = []
      try await journal.entries(session: "s") {
        deltas.append($0.delta)
        return true
      }
      XCTAssertEqual(deltas.map(\.isEmpty), [true])
    }
  }

  func testAppendRefusesPayloadsThatAreNotTextAndUnknownSessions() async throws {
    try await forEachBackend { journal, _ in
      _ = try await journal.createSession("s", initial: StateEncoding.encode(Root()), version: 1)
      await assertStorageError(.invalidData) {
        try await journal.append(
          session: "s", expectedSequence: 0,
          JournalEntryDraft(
            type: "x", version: 1, payload: Data([0xFF, 0xFE]),
            state: try StateEncoding.encode(Root())))
      }
      await assertStorageError(.unknownSession) {
        try await journal.append(session: "nobody", expectedSequence: 0, .test("x", state: Root()))
      }
      let headSequenceResult = try await journal.headSequence(session: "s")
      XCTAssertEqual(headSequenceResult, 0)
    }
  }

  func testTimeLookups() async throws {
    try await forEachBackend { journal, _ in
      let t0 = try await makeTimedSession(journal)
      let sequenceResult = try await journal.sequence(session: "s", atOrBefore: t0)
      XCTAssertEqual(sequenceResult, 0)
      let addingTimeIntervalResult7 = try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(9.999))
      XCTAssertEqual(
        addingTimeIntervalResult7, 0)
      let addingTimeIntervalResult6 = try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(10))
      XCTAssertEqual(addingTimeIntervalResult6, 1)
      let addingTimeIntervalResult5 = try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(35))
      XCTAssertEqual(addingTimeIntervalResult5, 3)
      let addingTimeIntervalResult4 = try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(999))
      XCTAssertEqual(addingTimeIntervalResult4, 5)
      await assertStorageError(.sequenceOutOfRange) {
        try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(-1))
      }
      await assertStorageError(.unknownSession) {
        try await journal.sequence(session: "nobody", atOrBefore: t0)
      }
      guard let journal = journal as? SQLiteJournal else { return }
      // Neither the binary search's probe nor the late entries' lookup scans the journal.
      let plans = try await journal.database.read { db in
        try [
          "SELECT sequence, latest_at FROM journal WHERE key BETWEEN ? AND ? "
            + "ORDER BY key LIMIT 1",
          "SELECT sequence, recorded_at FROM journal WHERE session_number = ? "
            + "AND recorded_at < latest_at AND recorded_at <= ? "
            + "ORDER BY recorded_at DESC, key DESC LIMIT 1",
        ].map { sql in
          try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [1, 1])
            .map { $0["detail"] as String }.joined(separator: "; ")
        }
      }
      XCTAssertTrue(plans[0].contains("USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"), plans[0])
      XCTAssertTrue(plans[1].contains("USING INDEX journal_recorded_late"), plans[1])
    }
  }

  func testTimeLookupsAfterACompactionFallBackToTheOldestKeptSnapshot() async throws {
    try await forEachBackend(.init(snapshotInterval: 2)) { journal, name in
      let t0 = try await makeTimedSession(journal)
      // Keeps the snapshots at 2 and 4: entries 1 and 2 go, 3…5 stay.
      let retainable = try XCTUnwrap(journal as? any RetainableJournal, name)
      let plan = try await retainable.compact("s", keepSnapshots: 2, dryRun: false)
      XCTAssertEqual(plan.keptSnapshots, [2, 4])

      let addingTimeIntervalResult3 = try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(20))
      XCTAssertEqual(addingTimeIntervalResult3, 2)
      let addingTimeIntervalResult2 = try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(25))
      XCTAssertEqual(addingTimeIntervalResult2, 2)
      let addingTimeIntervalResult1 = try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(30))
      XCTAssertEqual(addingTimeIntervalResult1, 3)
      let addingTimeIntervalResult = try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(99))
      XCTAssertEqual(addingTimeIntervalResult, 5)
      let gone = await assertStorageError(.sequenceOutOfRange) {
        try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(19.999))
      }
      XCTAssertEqual(
        gone?.message.hasPrefix("Session s was compacted: its history now starts at sequence 2"),
        true, gone?.message ?? "")
      await assertStorageError(.sequenceOutOfRange) {
        try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(-1))
      }
    }
  }

  func testStacksOutsideTheJournalAreOutOfRange() async throws {
    try await forEachBackend { journal, _ in
      _ = try await journal.createSession("s", initial: StateEncoding.encode(Root()), version: 1)
      await assertStorageError(.sequenceOutOfRange) { try await journal.stacks(session: "s", at: 1) }
      await assertStorageError(.sequenceOutOfRange) { try await journal.stacks(session: "s", at: -1) }
      await assertStorageError(.unknownSession) { try await journal.stacks(session: "t", at: 0) }
      await assertStorageError(.unknownSession) { try await journal.headStacks(session: "t") }
    }
  }

  /// A session `s` created at the returned time t0, with five entries recorded at t0 + 10 s,
  /// t0 + 20 s, … t0 + 50 s, each pushing a screen.
  private func makeTimedSession(_ journal: any JournalBackend) async throws -> Date {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    _ = try await journal.createSession(
      "s", initial: StateEncoding.encode(Root()), version: 1, metadata: nil, forkedFrom: nil,
      at: t0)
    var root = Root()
    for sequence in 0..<5 {
      root.tabA.append(.home)
      _ = try await journal.append(
        session: "s", expectedSequence: Int64(sequence),
        .test("push", state: root, at: t0.addingTimeInterval(Double(sequence + 1) * 10)))
    }
    return t0
  }
}
