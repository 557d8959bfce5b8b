import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackStorage

/// Session identifiers are their bytes: `café` written with `é` (U+00E9, NFC) and with `e` and a
/// combining accent (U+0065 U+0301, NFD) are two sessions, which every command tells apart,
/// though Swift's `String` calls the two spellings equal. Each test runs the built binary on a
/// journal holding both.
final class EquivalentIDTests: CLITestCase {
  private let composed = "caf\u{E9}"
  private let decomposed = "cafe\u{301}"

  /// A journal holding the demo's session as `café` in NFC and, with `more` more actions, in
  /// NFD, with a snapshot every 3 entries.
  private func makeTwins(more: Int = 5) throws -> String {
    let path = directory.path("twins.sqlite")
    for (session, actions) in [(composed, "0"), (decomposed, String(more))] {
      let result = try runCLI([
        "demo", "--db", path, "--session", session, "--actions", actions,
        "--snapshot-interval", "3", "--json",
      ])
      XCTAssertEqual(result.status, 0, result.stderr)
    }
    return path
  }

  /// Adds a session `fork` forked from `source` at sequence 1.
  private func addFork(of source: String, at path: String) throws {
    let journal = try SQLiteJournal(path: path)
    defer { try? journal.close() }
    _ = try journal.createSession(
      "fork", initial: try StateEncoding.encode(["path": StackState<Int>()]), version: 1,
      forkedFrom: (SessionID(source), 1))
  }

  /// Whether two texts have the same UTF-8 bytes (`==` on `String` compares canonically).
  private func same(_ text: Any?, _ expected: String) -> Bool {
    (text as? String).map { Array($0.utf8) == Array(expected.utf8) } ?? false
  }

  /// The objects of `key` in the JSON a command printed, by the bytes of their `idKey`.
  private func objects(
    _ arguments: [String], _ key: String, id idKey: String
  ) throws -> [(id: String, object: [String: Any])] {
    let result = try runCLI(arguments + ["--json"])
    XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
    let list = try XCTUnwrap(try result.jsonObject()[key] as? [[String: Any]], result.stdout)
    return list.map { (($0[idKey] as? String) ?? "", $0) }
  }

  /// The identifiers `sessions --json` lists, as bytes.
  private func listedIDs(_ path: String) throws -> [[UInt8]] {
    try objects(["sessions", "--db", path], "sessions", id: "id").map { Array($0.id.utf8) }
  }

  private func entries(_ path: String, _ session: String) throws -> Int {
    let item = try objects(["sessions", "--db", path], "sessions", id: "id")
      .first { same($0.id, session) }
    return try XCTUnwrap(item?.object["entries"] as? Int, "session \(session) is listed")
  }

  // MARK: Deleting

  /// Twins of the same length: a plan made by a dry run matches each with its own row again.
  func testPruningOneSpellingKeepsTheOther() throws {
    let path = try makeTwins(more: 0)
    let pruned = try runCLI(["prune", "--session", composed, "--db", path, "--json"])
    XCTAssertEqual(pruned.status, 0, pruned.stderr)
    let deleted = try XCTUnwrap(try pruned.jsonObject()["sessions"] as? [[String: Any]])
    XCTAssertEqual(deleted.count, 1, pruned.stdout)
    XCTAssertTrue(same(deleted.first?["id"], composed), pruned.stdout)
    XCTAssertEqual(try listedIDs(path), [Array(decomposed.utf8)], "the NFD spelling is kept")
    XCTAssertEqual(try runCLI(["verify", "--db", path]).status, 0)
  }

  func testPruningTheForksOfOneSpellingKeepsTheForksOfTheOther() throws {
    let path = try makeTwins()
    try addFork(of: decomposed, at: path)
    let pruned = try runCLI(["prune", "--forks-of", composed, "--db", path, "--json"])
    XCTAssertEqual(pruned.status, 0, pruned.stderr)
    XCTAssertEqual((try pruned.jsonObject()["sessions"] as? [Any])?.count, 0, pruned.stdout)
    XCTAssertEqual(try listedIDs(path).count, 3, "the fork of the NFD spelling is kept")
  }

  // MARK: Listing

  /// In text the two spellings print alike: `sessions` says they are two identifiers.
  func testSessionsSaysWhichIdentifiersPrintAlike() throws {
    let path = try makeTwins()
    let listed = try runCLI(["sessions", "--db", path])
    XCTAssertEqual(listed.status, 0, listed.stderr)
    XCTAssertTrue(
      listed.stdout.contains("Note: 2 sessions print as caf"), listed.stdout)
    XCTAssertTrue(listed.stdout.contains("are different identifiers"), listed.stdout)
    XCTAssertEqual(listed.stdout.components(separatedBy: "Note:").count, 2, "one note")
    let one = directory.path("one.sqlite")
    XCTAssertEqual(try runCLI(["demo", "--db", one, "--session", composed]).status, 0)
    XCTAssertFalse(try runCLI(["sessions", "--db", one]).stdout.contains("Note:"))
  }

  // MARK: Sizes

  func testSessionsAndStatsGiveEachSpellingItsOwnSize() throws {
    let path = try makeTwins()
    let listed = try objects(["sessions", "--db", path], "sessions", id: "id")
    let stats = try objects(["stats", "--db", path], "sessions", id: "session")
    for (name, items, entriesKey) in [("sessions", listed, "entries"), ("stats", stats, "entries")]
    {
      XCTAssertEqual(items.count, 2, name)
      let small = try XCTUnwrap(items.first { same($0.id, composed) }?.object, name)
      let large = try XCTUnwrap(items.first { same($0.id, decomposed) }?.object, name)
      XCTAssertLessThan(small[entriesKey] as? Int ?? 0, large[entriesKey] as? Int ?? 0, name)
      XCTAssertLessThan(
        small["bytes"] as? Int ?? 0, large["bytes"] as? Int ?? 0,
        "\(name): the session with more entries takes more bytes")
    }
  }

  // MARK: Importing

  func testImportingUnderTheOtherSpellingMakesASecondSession() throws {
    let path = directory.path("one.sqlite")
    XCTAssertEqual(try runCLI(["demo", "--db", path, "--session", composed]).status, 0)
    let file = directory.path("export.ndjson")
    XCTAssertEqual(try runCLI(["export", composed, "--db", path, "-o", file]).status, 0)
    let imported = try runCLI(["import", file, "--db", path, "--as", decomposed, "--json"])
    XCTAssertEqual(imported.status, 0, imported.stderr)
    XCTAssertTrue(same(try imported.jsonObject()["session"], decomposed), imported.stdout)
    XCTAssertEqual(
      Set(try listedIDs(path)), [Array(composed.utf8), Array(decomposed.utf8)])
    let again = try runCLI(["import", file, "--db", path, "--as", decomposed])
    assertOneLineError(again, contains: "already exists")
  }

  // MARK: Migrating

  /// A file at schema 1 holding `café` in NFC (two entries) and in NFD (one), as rows the
  /// first schema wrote.
  private func makeSchemaOneTwins() throws -> String {
    let path = directory.path("schema-1.sqlite")
    let queue = try DatabaseQueue(path: path)
    try SchemaMigrator.migrate(queue, through: 1, path: path)
    let element = { (id: Int, count: Int) in
      #"{"caseName":"counter","id":\#(id),"#
        + #""state":"{\"counter\":{\"_0\":{\"count\":\#(count)}}}"}"#
    }
    let change = { (ids: String, next: Int, popped: String, pushed: String) in
      #"{"changes":[{"changed":[],"ids":[\#(ids)],"nextID":\#(next),"path":"path","#
        + #""popped":[\#(popped)],"pushed":[\#(pushed)],"removed":false}]}"#
    }
    try queue.write { db in
      for (session, head) in [(composed, 2), (decomposed, 1)] {
        try db.execute(
          sql: "INSERT INTO sessions (id, created_at, head_sequence) VALUES (?, ?, ?)",
          arguments: [session, "2025-01-31T09:30:00.000Z", head])
        try db.execute(
          sql: "INSERT INTO snapshots (session, sequence, version, state, stacks, recorded_at) "
            + "VALUES (?, 0, 1, ?, ?, '2025-01-31T09:30:00.000Z')",
          arguments: [
            session,
            #"{"path":{"elements":[{"id":0,"state":{"counter":{"_0":{"count":1}}}}],"#
              + #""nextID":1}}"#,
            #"[{"elements":["# + element(0, 1) + #"],"nextID":1,"path":"path"}]"#,
          ])
        let entries = [
          change("0,1", 2, "", element(1, 2)), change("0,2", 3, "1", element(2, 3)),
        ].prefix(head)
        for (index, delta) in entries.enumerated() {
          try db.execute(
            sql: "INSERT INTO journal (session, sequence, recorded_at, type, version, payload, "
              + "delta) VALUES (?, ?, ?, 'path.push', 1, '{}', ?)",
            arguments: [session, index + 1, "2025-01-31T09:30:0\(index + 1).000Z", delta])
        }
        let last = head == 2 ? (2, 3) : (1, 2)
        try db.execute(
          sql: "INSERT INTO stacks (session, path, next_id) VALUES (?, 'path', ?)",
          arguments: [session, last.0 + 1])
        try db.execute(
          sql: "INSERT INTO stack_elements (session, path, id, position, case_name, state) "
            + "VALUES (?, 'path', 0, 0, 'counter', ?), (?, 'path', ?, 1, 'counter', ?)",
          arguments: [
            session, #"{"counter":{"_0":{"count":1}}}"#, session, last.0,
            #"{"counter":{"_0":{"count":\#(last.1)}}}"#,
          ])
      }
    }
    try queue.close()
    return path
  }

  func testMigratingKeepsBothSpellingsWithTheirOwnEntries() throws {
    let path = try makeSchemaOneTwins()
    let migrated = try runCLI(["migrate", "--db", path, "--json"])
    XCTAssertEqual(migrated.status, 0, migrated.stderr)
    XCTAssertEqual(try migrated.jsonObject()["version"] as? Int, SQLiteJournal.latestSchemaVersion)
    XCTAssertEqual(try entries(path, composed), 2)
    XCTAssertEqual(try entries(path, decomposed), 1)
    let verify = try runCLI(["verify", "--db", path])
    XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
  }

  // MARK: Reading

  func testAReportListsOnlyTheForksOfItsOwnSpelling() throws {
    let path = try makeTwins()
    try addFork(of: decomposed, at: path)
    for (session, listsFork) in [(composed, false), (decomposed, true)] {
      let page = directory.path("page.html")
      let result = try runCLI(["report", session, "--db", path, "-o", page])
      XCTAssertEqual(result.status, 0, result.stderr)
      let html = try String(contentsOfFile: page, encoding: .utf8)
      XCTAssertEqual(html.contains("\"fork\""), listsFork, "the page of \(session.unicodeScalars)")
    }
  }

  func testEveryCommandReadsTheSessionOfItsOwnSpelling() throws {
    let path = try makeTwins()
    let small = try entries(path, composed)
    let large = try entries(path, decomposed)
    XCTAssertLessThan(small, large)
    for (session, count) in [(composed, small), (decomposed, large)] {
      let log = try runCLI(["log", session, "--db", path, "--json"])
      XCTAssertEqual(log.status, 0, log.stderr)
      XCTAssertEqual((try log.jsonObject()["entries"] as? [Any])?.count, count)
      let show = try runCLI(["show", session, "--db", path, "--json"])
      XCTAssertEqual(show.status, 0, show.stderr)
      XCTAssertEqual(try show.jsonObject()["sequence"] as? Int, count)
      let diff = try runCLI(["diff", session, "0", String(count), "--db", path, "--json"])
      XCTAssertEqual(diff.status, 0, diff.stderr)
      XCTAssertTrue(same(try diff.jsonObject()["session"], session), diff.stdout)
      let export = try runCLI(["export", session, "--db", path])
      XCTAssertEqual(export.status, 0, export.stderr)
      let lines = try export.jsonLines()
      XCTAssertEqual(lines.filter { $0["kind"] as? String == "entry" }.count, count)
      let verify = try runCLI(["verify", session, "--db", path])
      XCTAssertEqual(verify.status, 0, verify.stderr)
    }
    let compacted = try runCLI([
      "compact", composed, "--keep-snapshots", "1", "--db", path, "--json",
    ])
    XCTAssertEqual(compacted.status, 0, compacted.stderr)
    XCTAssertLessThan(try entries(path, composed), small, "compacting NFC dropped entries")
    XCTAssertEqual(try entries(path, decomposed), large, "and left NFD alone")
  }
}
