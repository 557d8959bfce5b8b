import Foundation
import GRDB
import StackJournalDemo
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// Finding the entry of a time when the recording machine's clock goes back: every backend
/// answers as the definition does (the latest time at or before, then the highest sequence),
/// and SQLite does it without an index written by every append (schema 3).
final class TimeLookupTests: StorageTestCase {
  private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  /// The definition, over the entries kept: the entry recorded at or before `time` with the
  /// latest time, then the highest sequence.
  private func reference(_ times: [Int64: Date], atOrBefore time: Date) -> Int64? {
    let millis = { (date: Date) in Timestamp.string(from: date) }
    return times.filter { millis($0.value) <= millis(time) }
      .max { (millis($0.value), $0.key) < (millis($1.value), $1.key) }?.key
  }

  /// Random sessions whose clock mostly goes forward, sometimes stands still and sometimes
  /// goes back, asked at every entry's time and a millisecond either side.
  func testTimeLookupsMatchTheDefinitionWhenTheClockGoesBack() async throws {
    try await forEachBackend { journal, name in
      var generator = SeededGenerator(seed: 0x7153)
      for round in 0..<6 {
        let session = SessionID(rawValue: "clock-\(round)")
        _ = try await journal.createSession(
          session, initial: StateEncoding.encode(Root()), version: 1, metadata: nil,
          forkedFrom: nil, at: t0)
        var times: [Int64: Date] = [:]
        var clock = t0.addingTimeInterval(1)
        var root = Root()
        for sequence in Int64(1)...Int64(40) {
          switch Int.random(in: 0..<10, using: &generator) {
          case 0..<2:
            clock.addTimeInterval(-Double(Int.random(in: 1...9000, using: &generator)) / 1000)
          case 2: break
          default: clock.addTimeInterval(Double(Int.random(in: 1...5000, using: &generator)) / 1000)
          }
          let recorded = max(clock, t0)
          root.tabA.append(.home)
          _ = try await journal.append(
            session: session, expectedSequence: sequence - 1,
            .test("push", state: root, at: recorded))
          times[sequence] = recorded
        }
        let asked = times.values.flatMap {
          [$0, $0.addingTimeInterval(0.001), $0.addingTimeInterval(-0.001)]
        }
        // Before the session's creation is out of range (JournalTests).
        for time in asked where time >= t0 {
          let expected = reference(times, atOrBefore: time) ?? 0
          let sequenceResult1 = try await journal.sequence(session: session, atOrBefore: time)
          XCTAssertEqual(
            sequenceResult1, expected,
            "\(name), \(session) at \(Timestamp.string(from: time))")
        }
        let found = try await journal.session(session)
        let info = try XCTUnwrap(found, name)
        XCTAssertEqual(
          info.firstActivity.map(Timestamp.string(from:)),
          times.values.map(Timestamp.string(from:)).min(), name)
        XCTAssertEqual(
          info.lastActivity.map(Timestamp.string(from:)),
          times.values.map(Timestamp.string(from:)).max(), name)
      }
    }
  }

  /// Times outside years 0000–9999 in UTC would be stored as `+10000-…` or `-0001-…`, which
  /// sort as text below `2026-…`: every call that writes a time or compares one with the stored
  /// times refuses them with `timeOutOfRange`, and writes nothing.
  func testTimesOutsideTheStoredRangeAreRefused() async throws {
    let after = Timestamp.latest.addingTimeInterval(3600)
    let before = Timestamp.earliest.addingTimeInterval(-3600)
    try await forEachBackend { journal, name in
      for time in [after, before] {
        await assertStorageError(.timeOutOfRange) {
          try await journal.createSession(
            "far", initial: StateEncoding.encode(Root()), version: 1, metadata: nil,
            forkedFrom: nil, at: time)
        }
      }
      let missing = try await journal.session("far")
      XCTAssertNil(missing, name)
      _ = try await journal.createSession(
        "s", initial: StateEncoding.encode(Root()), version: 1, metadata: nil, forkedFrom: nil,
        at: t0)
      var root = Root()
      root.tabA.append(.home)
      await assertStorageError(.timeOutOfRange) {
        try await journal.append(
          session: "s", expectedSequence: 0, .test("push", state: root, at: after))
      }
      let head = try await journal.headSequence(session: "s")
      XCTAssertEqual(head, 0, name)
      _ = try await journal.append(
        session: "s", expectedSequence: 0, .test("push", state: root, at: Timestamp.latest))
      let last = try await journal.sequence(session: "s", atOrBefore: Timestamp.latest)
      XCTAssertEqual(last, 1, "\(name): the last millisecond of the range is a time")
      await assertStorageError(.timeOutOfRange) {
        try await journal.sequence(session: "s", atOrBefore: after)
      }
      let inspectable = try XCTUnwrap(journal as? any InspectableJournal, name)
      for query in [JournalQuery(since: after), JournalQuery(until: after)] {
        await assertStorageError(.timeOutOfRange) {
          try await inspectable.journalRows(session: "s", matching: query) { _ in true }
        }
      }
    }
  }

  /// After a compaction, the entries kept are looked up as before, late ones too.
  func testTimeLookupsAfterACompactionWhenTheClockWentBack() async throws {
    try await forEachBackend(.init(snapshotInterval: 4)) { journal, name in
      _ = try await journal.createSession(
        "s", initial: StateEncoding.encode(Root()), version: 1, metadata: nil, forkedFrom: nil,
        at: t0)
      // Seconds after t0 of entries 1…12: the clock goes back at 3, 7 and 10.
      let seconds: [Double] = [10, 20, 15, 30, 40, 50, 5, 60, 70, 45, 80, 90]
      var root = Root()
      var times: [Int64: Date] = [:]
      for (index, second) in seconds.enumerated() {
        root.tabA.append(.home)
        _ = try await journal.append(
          session: "s", expectedSequence: Int64(index),
          .test("push", state: root, at: t0.addingTimeInterval(second)))
        times[Int64(index + 1)] = t0.addingTimeInterval(second)
      }
      let retainable = try XCTUnwrap(journal as? any RetainableJournal, name)
      // Keeps the snapshots at 8 and 12: entries 1…8 go.
      _ = try await retainable.compact("s", keepSnapshots: 2, dryRun: false)
      let kept = times.filter { $0.key > 8 }
      for second in stride(from: 45.0, through: 100, by: 2.5) {
        let time = t0.addingTimeInterval(second)
        let sequenceResult = try await journal.sequence(session: "s", atOrBefore: time)
        XCTAssertEqual(
          sequenceResult,
          reference(kept, atOrBefore: time), "\(name) at +\(second) s")
      }
      // Before every entry kept and the oldest snapshot kept (recorded at +60 s).
      await assertStorageError(.sequenceOutOfRange) {
        try await journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(44))
      }
    }
  }

  /// Schema 3 writes no index entry for an append whose clock did not go back, and the late
  /// ones are found through the partial index.
  func testOnlyEntriesRecordedEarlierThanAnEarlierOneAreIndexedByTime() async throws {
    let journal = try makeJournal(.onDisk)
    _ = try journal.createSession(
      "s", initial: StateEncoding.encode(Root()), version: 1, metadata: nil, forkedFrom: nil,
      at: t0)
    var root = Root()
    for (index, second) in [10.0, 20, 20, 15, 30, 25, 40].enumerated() {
      root.tabA.append(.home)
      _ = try await journal.append(
        session: "s", expectedSequence: Int64(index),
        .test("push", state: root, at: t0.addingTimeInterval(second)))
    }
    let t0 = self.t0
    try await journal.database.read { db in
      let late = try Int64.fetchAll(
        db,
        sql: "SELECT sequence FROM journal INDEXED BY journal_recorded_late "
          + "WHERE session_number = 1 AND recorded_at < latest_at ORDER BY sequence")
      XCTAssertEqual(late, [4, 6])
      let latest = try String.fetchAll(
        db, sql: "SELECT latest_at FROM journal WHERE session_number = 1 ORDER BY sequence")
      XCTAssertEqual(
        latest,
        [10.0, 20, 20, 20, 30, 30, 40].map { Timestamp.string(from: t0.addingTimeInterval($0)) })
      let indexes = try String.fetchAll(
        db,
        sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal' "
          + "AND sql IS NOT NULL")
      XCTAssertEqual(indexes, ["journal_recorded_late"])
    }
    XCTAssertEqual(try journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(27)), 6)
    XCTAssertEqual(try journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(22)), 3)
    XCTAssertEqual(try journal.sequence(session: "s", atOrBefore: t0.addingTimeInterval(17)), 4)
    XCTAssertEqual(try journal.integrityProblems(), [])
    XCTAssertTrue(try journal.verifyStorage().isClean)

    // A latest time that lost the earlier entries' (entry 4's, edited to its own time) would
    // hide entries from time lookups: verify names it.
    try await journal.database.write { db in
      try db.execute(
        sql: "UPDATE journal SET latest_at = recorded_at WHERE session_number = 1 AND sequence = 4")
    }
    let problems = try XCTUnwrap(journal.verifyStorage().sessions.first).problems
    XCTAssertEqual(problems.map(\.sequence), [4], "\(problems)")
    XCTAssertEqual(problems.first?.kind, .invalidData)
    XCTAssertTrue(
      problems.first?.message.contains(
        "latest time `\(Timestamp.string(from: t0.addingTimeInterval(15)))`")
        ?? false, "\(problems)")
  }
}
