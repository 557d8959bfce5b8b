import Foundation
import GRDB
import StackJournalTestSupport
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// The journal keyed by one integer (schema 4): a session's entries are the keys
/// `number * 2³² + sequence`, and every read of a session's entries is a range of them.
final class JournalKeyTests: StorageTestCase {
  private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  /// The key, session number and sequence of every journal row, in key order.
  private func keys(_ journal: SQLiteJournal) throws -> [[Int64]] {
    try journal.database.read { db in
      try Row.fetchAll(db, sql: "SELECT key, session_number, sequence FROM journal ORDER BY key")
        .map { [$0[0], $0[1], $0[2]] }
    }
  }

  private func number(_ journal: SQLiteJournal, _ session: SessionID) throws -> Int64? {
    try journal.database.read { db in
      try Int64.fetchOne(
        db, sql: "SELECT number FROM sessions WHERE id = ?", arguments: [session.rawValue])
    }
  }

  private func payloads(_ journal: SQLiteJournal, _ session: SessionID) async throws -> [String] {
    var payloads: [String] = []
    try await journal.entries(session: session) { entry in
      payloads.append("\(entry.sequence):\(entry.type):\(String(decoding: entry.payload, as: UTF8.self))")
      return true
    }
    return payloads
  }

  /// Two sessions appended in turn, one second apart, so their entries interleave by time:
  /// every read of one session (entries, inspection, time lookups, stacks, sizes) finds its own
  /// entries only, and no statement that reads the journal scans it.
  func testTwoSessionsInterleavedByTimeNeverMix() async throws {
    let trace = StatementTrace()
    let journal = try makeJournal(.onDisk, options: .init(statementTrace: { trace.add($0) }))
    for id in ["a", "b"] as [SessionID] {
      _ = try await journal.createSession(
        id, initial: StateEncoding.encode(Root()), version: 1, metadata: nil, forkedFrom: nil,
        at: t0)
    }
    XCTAssertEqual(try number(journal, "a"), 1)
    XCTAssertEqual(try number(journal, "b"), 2)
    var roots: [SessionID: Root] = ["a": Root(), "b": Root()]
    for step in 0..<40 {
      let id: SessionID = step.isMultiple(of: 2) ? "a" : "b"
      roots[id]!.tabA.append(.counter(Counter(count: step)))
      let sequence = try await journal.append(
        session: id, expectedSequence: Int64(step / 2),
        .test(
          "\(id).push", payload: #"{"step":\#(step)}"#, state: roots[id]!,
          at: t0.addingTimeInterval(Double(step + 1))))
      XCTAssertEqual(sequence, Int64(step / 2 + 1))
    }
    XCTAssertEqual(
      try keys(journal),
      (1...2).flatMap { number in (1...20).map { [Int64(number) << 32 + $0, Int64(number), $0] } })
    _ = trace.take()
    for (id, parity) in [("a", 0), ("b", 1)] as [(SessionID, Int)] {
      let steps = Array(stride(from: parity, to: 40, by: 2))
      let read = try await payloads(journal, id)
      XCTAssertEqual(
        read,
        steps.enumerated().map { #"\#($0.offset + 1):\#(id).push:{"step":\#($0.element)}"# })
      XCTAssertEqual(try journal.headSequence(session: id), 20)
      XCTAssertEqual(try journal.lastEntrySequence(session: id), 20)
      let info = try XCTUnwrap(journal.session(id))
      XCTAssertEqual(info.entryCount, 20)
      XCTAssertEqual(info.firstActivity, t0.addingTimeInterval(Double(parity + 1)))
      XCTAssertEqual(info.lastActivity, t0.addingTimeInterval(Double(parity + 39)))
      // Steps 0…10 were recorded by second 11: a's 0, 2, …, 10 (6), b's 1, 3, …, 9 (5).
      XCTAssertEqual(
        try journal.sequence(session: id, atOrBefore: t0.addingTimeInterval(11)), parity == 0 ? 6 : 5)
      XCTAssertEqual(
        try journal.stacks(session: id, at: 20), try StateEncoding.encode(roots[id]!).stacks)

      var rows: [String] = []
      try journal.journalRows(
        session: id, matching: JournalQuery(fromSequence: 3, toSequence: 12, last: 4, newestFirst: true)
      ) { row in
        rows.append("\(row.sequence):\(row.type)")
        return true
      }
      XCTAssertEqual(rows, [12, 11, 10, 9].map { "\($0):\(id).push" })
      rows = []
      try journal.journalRows(
        session: id,
        matching: JournalQuery(
          since: t0.addingTimeInterval(30), typeGlob: "\(id).*")
      ) { row in
        rows.append("\(row.sequence)")
        return true
      }
      XCTAssertEqual(rows, ((parity == 0 ? 16 : 15)...20).map { "\($0)" }, "\(id)")
      let statistics = try journal.statistics(session: id)
      XCTAssertEqual(statistics.sessions.map(\.id), [id])
      XCTAssertEqual(statistics.sessions.first?.entries, 20)
      XCTAssertEqual(statistics.activity.map(\.entries).reduce(0, +), 20)
    }

    // Every statement that read the journal went through its key or the index on its
    // session's late entries; only the statistics' count of each table's rows reads them all.
    let statements = Set(
      trace.take().filter { sql in
        sql.contains("journal") && ["SELECT", "DELETE", "UPDATE"].contains { sql.hasPrefix($0) }
          && sql != #"SELECT count(*) FROM "journal""#
      })
    XCTAssertFalse(statements.isEmpty)
    try await journal.database.read { db in
      for sql in statements {
        // Every parameter NULL: the plan does not depend on the values.
        let parameters =
          sql.contains("?2")
          ? sql.matches(of: /\?(\d)/).compactMap { Int($0.1) }.max() ?? 0
          : sql.filter { $0 == "?" }.count
        let plan = try Row.fetchAll(
          db, sql: "EXPLAIN QUERY PLAN " + sql,
          arguments: StatementArguments(Array(repeating: nil as Int?, count: parameters))
        ).map { $0["detail"] as String }
        XCTAssertFalse(
          plan.contains { $0.hasPrefix("SCAN j") }, "\(sql): \(plan.joined(separator: "; "))")
      }
    }

    // Deleting a session leaves the other's keys; a session created afterwards takes the next
    // number and reads only its own entries.
    try journal.deleteSession("a")
    XCTAssertEqual(try keys(journal).map { $0[1] }, Array(repeating: 2, count: 20))
    _ = try await journal.createSession("c", initial: StateEncoding.encode(Root()), version: 1)
    XCTAssertEqual(try number(journal, "c"), 3)
    let empty = try await payloads(journal, "c")
    XCTAssertEqual(empty, [])
    XCTAssertEqual(try journal.headSequence(session: "c"), 0)
    var root = Root()
    root.tabB.append(.home)
    _ = try await journal.append(
      session: "c", expectedSequence: 0, .test("c.push", payload: #"{"c":1}"#, state: root))
    let c = try await payloads(journal, "c")
    XCTAssertEqual(c, [#"1:c.push:{"c":1}"#])
    let b = try await payloads(journal, "b")
    XCTAssertEqual(b.count, 20)
    XCTAssertEqual(try journal.headSequence(session: "b"), 20)
    XCTAssertEqual(try journal.integrityProblems(), [])
    XCTAssertTrue(try journal.verifyStorage().isClean)
  }

  /// The session number is not a foreign key (a session's deletion would scan the journal): the
  /// journal deletes a session's entries with it, and `verify` reports entries whose session is
  /// gone, as a hand edit with foreign keys off leaves them.
  func testDeletingASessionLeavesNoEntryAndVerifyReportsEntriesOfNoSession() async throws {
    let journal = try makeJournal(.onDisk)
    for id in ["a", "b", "c"] as [SessionID] {
      _ = try await journal.createSession(id, initial: StateEncoding.encode(Root()), version: 1)
      var root = Root()
      for step in 0..<3 {
        root.tabA.append(.counter(Counter(count: step)))
        _ = try await journal.append(
          session: id, expectedSequence: Int64(step), .test("push", state: root))
      }
    }
    try journal.deleteSession("b")
    XCTAssertEqual(try keys(journal).map { $0[1] }, [1, 1, 1, 3, 3, 3])
    XCTAssertTrue(try journal.verifyStorage().isClean)

    try await journal.database.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA foreign_keys = OFF")
      try db.execute(sql: "DELETE FROM snapshots WHERE session = 'c'")
      try db.execute(sql: "DELETE FROM stack_elements WHERE session = 'c'")
      try db.execute(sql: "DELETE FROM stacks WHERE session = 'c'")
      try db.execute(sql: "DELETE FROM sessions WHERE id = 'c'")
      try db.execute(sql: "PRAGMA foreign_keys = ON")
    }
    let verification = try journal.verifyStorage()
    XCTAssertFalse(verification.isClean)
    XCTAssertEqual(
      verification.fileProblems,
      ["3 journal entries have a session number no session has (the smallest: 3)"])
  }

  /// A session's last sequence under the key is 2³² − 1: the append after it is refused with
  /// a ``StorageError/Code/sequenceOutOfRange`` error and writes nothing, instead of a key in
  /// the next session's range.
  func testASequenceBeyondTheKeyIsRefusedAtAppend() async throws {
    for durability in [Durability.normal, .full, .groupCommit(maxBatch: 4)] {
      let journal = try makeJournal(.onDisk, options: .init(durability: durability))
      for id in ["s", "t"] as [SessionID] {
        _ = try await journal.createSession(id, initial: StateEncoding.encode(Root()), version: 1)
      }
      let last = SessionKeys.maximumSequence
      XCTAssertEqual(last, 4_294_967_295)
      // A compacted session can start its journal anywhere: here just below the last key.
      try await journal.database.write { db in
        try db.execute(
          sql: "UPDATE sessions SET head_sequence = ? WHERE id = 's'", arguments: [last - 1])
      }
      var root = Root()
      root.tabA.append(.home)
      let appended = try await journal.append(
        session: "s", expectedSequence: last - 1, .test("push", state: root))
      XCTAssertEqual(appended, last)
      XCTAssertEqual(try keys(journal), [[1 << 32 + last, 1, last]])

      root.tabA.append(.home)
      let error = await assertStorageError(.sequenceOutOfRange) {
        try await journal.append(session: "s", expectedSequence: last, .test("push", state: root))
      }
      XCTAssertTrue(error?.message.contains("sequence 4294967296") ?? false, "\(String(describing: error))")
      XCTAssertTrue(error?.message.contains("Nothing was written") ?? false)
      XCTAssertEqual(try keys(journal), [[1 << 32 + last, 1, last]], "\(durability)")
      XCTAssertEqual(try journal.headSequence(session: "s"), last)
      XCTAssertEqual(try journal.headStacks(session: "s"), try StateEncoding.encode({
        var one = Root()
        one.tabA.append(.home)
        return one
      }()).stacks)

      // The next session's range is its own.
      let first = try await journal.append(
        session: "t", expectedSequence: 0, .test("push", state: root))
      XCTAssertEqual(first, 1)
      XCTAssertEqual(try keys(journal), [[1 << 32 + last, 1, last], [2 << 32 + 1, 2, 1]])
      try journal.close()
    }
  }

  /// Reads given sequences beyond the key's range (a head edited by hand, a query's bound)
  /// find nothing rather than another session's entries.
  func testBoundsBeyondTheKeyReadNothingOfTheNextSession() async throws {
    let journal = try makeJournal(.onDisk)
    for id in ["s", "t"] as [SessionID] {
      _ = try await journal.createSession(id, initial: StateEncoding.encode(Root()), version: 1)
      var root = Root()
      root.tabA.append(.home)
      _ = try await journal.append(session: id, expectedSequence: 0, .test("\(id)", state: root))
    }
    var rows: [Int64] = []
    try journal.journalRows(
      session: "s", matching: JournalQuery(fromSequence: -5, toSequence: Int64.max)
    ) { row in
      rows.append(row.sequence)
      return true
    }
    XCTAssertEqual(rows, [1])
    var entries: [String] = []
    try await journal.entries(session: "s", after: 0, through: Int64.max) { entry in
      entries.append(entry.type)
      return true
    }
    XCTAssertEqual(entries, ["s"])
    try await journal.database.read { db in
      XCTAssertEqual(
        try JournalRows.page(db, session: "s", after: Int64.max - 1, through: Int64.max, limit: 9)
          .count, 0)
      XCTAssertEqual(
        try JournalRows.page(db, session: "nobody", after: 0, through: Int64.max, limit: 9)
          .count, 0)
      XCTAssertEqual(try JournalRows.span(db, session: "s", through: Int64.max)?.count, 1)
    }
  }
  /// The ranges of keys a session's reads use: clamped to its sequences 1 … 2³² − 1, empty
  /// (low above high) when nothing asked is in them, never reaching the next session's keys.
  func testSessionKeyRanges() {
    let keys = SessionKeys(number: 3)
    let base: Int64 = 3 << 32
    XCTAssertEqual(keys.all.low, base + 1)
    XCTAssertEqual(keys.all.high, base + 4_294_967_295)
    XCTAssertLessThan(keys.all.high, SessionKeys(number: 4).all.low)
    XCTAssertEqual(keys.range(after: 5, through: 9).low, base + 6)
    XCTAssertEqual(keys.range(after: 5, through: 9).high, base + 9)
    XCTAssertEqual(keys.range(after: -7, through: Int64.max).low, base + 1)
    XCTAssertEqual(keys.range(after: -7, through: Int64.max).high, base + 4_294_967_295)
    for (after, through) in [
      (Int64(4_294_967_295), Int64.max), (Int64.max, Int64.max), (9, 9), (0, 0), (0, -3),
    ] {
      let range = keys.range(after: after, through: through)
      XCTAssertGreaterThan(range.low, range.high, "after \(after) through \(through)")
    }
    let greatest = SessionKeys(number: SessionKeys.maximumNumber).all
    XCTAssertEqual(greatest.high, Int64.max)
  }

  /// A file whose numbers reached 2³¹ − 1 (by a hand edit) refuses a new session instead of
  /// giving it a number whose keys overflow.
  func testANewSessionBeyondTheGreatestNumberIsRefused() async throws {
    let journal = try makeJournal(.onDisk)
    _ = try await journal.createSession("s", initial: StateEncoding.encode(Root()), version: 1)
    try await journal.database.write { db in
      try db.execute(sql: "UPDATE sessions SET number = 2147483647 WHERE id = 's'")
    }
    let error = await assertStorageError(.invalidData) {
      try await journal.createSession("t", initial: StateEncoding.encode(Root()), version: 1)
    }
    XCTAssertTrue(error?.message.contains("2147483647") ?? false, "\(String(describing: error))")
    XCTAssertNil(try journal.session("t"))
    var root = Root()
    root.tabA.append(.home)
    let sequence = try await journal.append(
      session: "s", expectedSequence: 0, .test("push", state: root))
    XCTAssertEqual(sequence, 1)
    XCTAssertEqual(try keys(journal), [[Int64.max - 4_294_967_294, 2_147_483_647, 1]])
  }
}
