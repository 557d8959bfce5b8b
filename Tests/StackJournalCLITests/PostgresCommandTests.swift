import Foundation
import StackJournalTestSupport
import XCTest

/// The CLI on a PostgreSQL journal: the same session recorded by `demo` into an SQLite file and
/// into PostgreSQL reads back the same through every inspection command. Needs
/// `STACKJOURNAL_TEST_POSTGRES_URL` and a build with the `PostgreSQL` trait; skipped, saying
/// why, otherwise.
final class PostgresCommandTests: CLITestCase {
  var url: String!

  override func setUpWithError() throws {
    try super.setUpWithError()
    if let reason = Backends.postgresSkipReason {
      print("skipped: \(name): \(reason)")
      throw XCTSkip(reason)
    }
    url = try XCTUnwrap(Backends.postgresURL(schema: Backends.freshSchema()))
  }

  /// Records the same scripted and random session into an SQLite file and into PostgreSQL.
  private func recordBoth(actions: Int = 40) throws -> (file: String, head: Int64) {
    let file = directory.path("same.sqlite")
    var heads: [Int64] = []
    for db in [file, url!] {
      let result = try runCLI([
        "demo", "--db", db, "--session", "same", "--actions", String(actions), "--seed", "7",
        "--snapshot-interval", "10", "--json",
      ])
      XCTAssertEqual(result.status, 0, result.stderr)
      heads.append(try XCTUnwrap(result.jsonObject()["headSequence"] as? Int).int64)
    }
    XCTAssertEqual(heads[0], heads[1], "both journals hold the same number of actions")
    return (file, heads[0])
  }

  /// A command's JSON output without its recording times, which differ between two recordings.
  private func timeless(_ arguments: [String], db: String) throws -> String {
    let result = try runCLI(arguments + ["--db", db])
    XCTAssertEqual(result.status, 0, "\(arguments) on \(db): \(result.stderr)")
    return try Self.canonical(result.json())
  }

  static func canonical(_ value: Any) throws -> String {
    func strip(_ value: Any) -> Any {
      if let object = value as? [String: Any] {
        return object.filter {
          !["time", "recordedAt", "createdAt", "firstActivity", "lastActivity", "database"]
            .contains($0.key)
        }.mapValues(strip)
      }
      if let array = value as? [Any] { return array.map(strip) }
      return value
    }
    let data = try JSONSerialization.data(
      withJSONObject: strip(value), options: [.sortedKeys, .fragmentsAllowed])
    return String(decoding: data, as: UTF8.self)
  }

  func testShowGivesTheSameStacksAtEverySequenceOnBothBackends() throws {
    let (file, head) = try recordBoth()
    XCTAssertGreaterThan(head, 40)
    var alertsShown = 0
    for sequence in 0...head {
      let arguments = ["show", "same", "--at", String(sequence), "--json"]
      let sqlite = try timeless(arguments, db: file)
      XCTAssertEqual(sqlite, try timeless(arguments, db: url), "show --at \(sequence)")
      XCTAssertTrue(sqlite.contains("\"stacks\""), sqlite)
      if sqlite.contains("\"kind\":\"alert\"") { alertsShown += 1 }
    }
    // The demo's fact alert was open at some of those moments, and both backends showed it.
    XCTAssertGreaterThan(alertsShown, 0)
    // The same moment found by time on each backend: its own last entry.
    let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(1))
    let atTime = try runCLI(["show", "same", "--at-time", now, "--json", "--db", url])
    XCTAssertEqual(atTime.status, 0, atTime.stderr)
    XCTAssertEqual(try atTime.jsonObject()["sequence"] as? Int, Int(head))
  }

  func testLogDiffSessionsAndReplayReadTheSameOnBothBackends() throws {
    let (file, head) = try recordBoth()
    let commands: [[String]] = [
      ["log", "same", "--json"],
      ["log", "same", "--json", "-n", "7", "--reverse"],
      ["log", "same", "--json", "--from", "3", "--to", "30"],
      ["log", "same", "--json", "--type", "*.element*"],
      ["log", "same", "--json", "--type", "push"],
      ["log", "same", "--json", "--type", "[n-q]*"],
      ["log", "same", "--json", "--type", "path.element?id:*"],
      ["diff", "same", "0", String(head), "--json"],
      ["diff", "same", "5", "17", "--json"],
      ["sessions", "--json"],
      ["demo-app", "replay", "same", "--to", "12", "--json"],
      ["demo-app", "replay", "same", "--json"],
    ]
    for command in commands {
      let sqlite = try timeless(command, db: file)
      XCTAssertEqual(sqlite, try timeless(command, db: url), "\(command)")
    }
    // The filters select something, so the comparisons above compare entries.
    let typed = try runCLI(["log", "same", "--json", "--type", "[n-q]*", "--db", url])
    let entries = try XCTUnwrap(typed.jsonObject()["entries"] as? [Any])
    XCTAssertFalse(entries.isEmpty, typed.stdout)
    let sessions = try runCLI(["sessions", "--json", "--db", url]).jsonObject()
    XCTAssertEqual(sessions["database"] as? String, Self.withoutPassword(url))
    let listed = try XCTUnwrap((sessions["sessions"] as? [[String: Any]])?.first)
    XCTAssertGreaterThan(try XCTUnwrap(listed["bytes"] as? Int), 0)
  }

  func testTextOutputAndTheReportPageWorkOnPostgreSQL() throws {
    _ = try recordBoth(actions: 5)
    let show = try runCLI(["show", "same", "--at", "3", "--db", url])
    XCTAssertEqual(show.status, 0, show.stderr)
    XCTAssertTrue(show.stdout.contains("Session same at sequence 3"), show.stdout)
    let page = directory.path("same.html")
    let report = try runCLI(["report", "same", "--db", url, "-o", page])
    XCTAssertEqual(report.status, 0, report.stderr)
    let html = try String(contentsOfFile: page, encoding: .utf8)
    XCTAssertTrue(html.contains("<!doctype html>") || html.contains("<!DOCTYPE html>"))
    XCTAssertFalse(html.contains("stackjournal:stackjournal@"), "no password in the page")
  }

  func testVerifyChecksAPostgreSQLJournalAsItChecksAFile() throws {
    let (file, _) = try recordBoth(actions: 30)
    let verify = try runCLI(["verify", "--db", url])
    XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    XCTAssertTrue(verify.stdout.contains("keys and references (enforced by the server): ok"))
    XCTAssertTrue(verify.stdout.contains("Clean: 1 session(s) verified."), verify.stdout)
    XCTAssertFalse(verify.stdout.contains(":stackjournal@"), "no password in the report")
    let replay = try runCLI(["demo-app", "verify", "--replay", "--db", url])
    XCTAssertEqual(replay.status, 0, replay.stdout + replay.stderr)
    XCTAssertTrue(replay.stdout.contains("entries reproduced: ok"), replay.stdout)
    // The same counts as the file's report; only the location and the file check differ.
    let sqlite = try runCLI(["verify", "--db", file, "--json"]).jsonObject()
    let postgres = try runCLI(["verify", "--db", url, "--json"]).jsonObject()
    XCTAssertEqual(
      try Self.canonical(sqlite["sessions"] as Any), try Self.canonical(postgres["sessions"] as Any))
    XCTAssertEqual(postgres["clean"] as? Bool, true)
  }

  func testCompactAndPruneDoOnPostgreSQLWhatTheyDoToAFile() throws {
    let (file, head) = try recordBoth(actions: 40)
    for arguments in [
      ["compact", "same", "--keep-snapshots", "2", "--dry-run", "--json"],
      ["compact", "same", "--keep-snapshots", "2", "--json"],
      ["prune", "--forks", "--dry-run", "--json"],
    ] {
      XCTAssertEqual(
        try timeless(arguments, db: file), try timeless(arguments, db: url), "\(arguments)")
    }
    // The history below the oldest kept snapshot is gone on both, the rest shows the same.
    let bounds = try runCLI(["compact", "same", "--keep-snapshots", "2", "--json", "--db", url])
    XCTAssertEqual(try bounds.jsonObject()["applied"] as? Bool, false, "nothing left to drop")
    for db in [file, url!] {
      let gone = try runCLI(["show", "same", "--at", "1", "--db", db])
      XCTAssertTrue(gone.stderr.contains("was compacted"), gone.stderr)
      XCTAssertEqual(try runCLI(["verify", "--db", db]).status, 0)
    }
    XCTAssertEqual(
      try timeless(["show", "same", "--at", String(head), "--json"], db: file),
      try timeless(["show", "same", "--at", String(head), "--json"], db: url))
    assertOneLineError(
      try runCLI(["compact", "same", "--keep-snapshots", "1", "--vacuum", "--db", url]),
      contains: "--vacuum rebuilds an SQLite file")
    // Pruning deletes the session with all its rows.
    let pruned = try runCLI(["prune", "--session", "same", "--json", "--db", url])
    XCTAssertEqual(pruned.status, 0, pruned.stderr)
    XCTAssertEqual(try pruned.jsonObject()["applied"] as? Bool, true)
    let sessions = try runCLI(["sessions", "--json", "--db", url]).jsonObject()
    XCTAssertEqual((sessions["sessions"] as? [Any])?.count, 0)
  }

  func testStatsCountTheSameSessionsAsAFile() throws {
    let (file, head) = try recordBoth(actions: 30)
    let sqlite = try runCLI(["stats", "--json", "--db", file]).jsonObject()
    let stats = try runCLI(["stats", "--json", "--db", url])
    XCTAssertEqual(stats.status, 0, stats.stderr)
    let postgres = try stats.jsonObject()
    XCTAssertEqual(
      try Self.canonical(sqlite["sessions"] as Any), try Self.canonical(postgres["sessions"] as Any))
    let tables = try XCTUnwrap(postgres["tables"] as? [[String: Any]])
    let journal = try XCTUnwrap(tables.first { $0["name"] as? String == "journal" })
    XCTAssertEqual(journal["rows"] as? Int, Int(head))
    XCTAssertGreaterThan(try XCTUnwrap(postgres["fileBytes"] as? Int), 0)
    let activity = try XCTUnwrap(postgres["activity"] as? [[String: Any]])
    XCTAssertEqual(activity.compactMap { $0["entries"] as? Int }.reduce(0, +), Int(head))
    let text = try runCLI(["stats", "same", "--db", url])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(text.stdout.hasPrefix("Database postgres://stackjournal@"), text.stdout)
  }

  func testMigrateShowsAndAppliesTheSchemaOfAPostgreSQLDatabase() throws {
    let dryRun = try runCLI(["migrate", "--dry-run", "--json", "--db", url])
    XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
    XCTAssertEqual(try dryRun.jsonObject()["currentVersion"] as? Int, 0)
    XCTAssertEqual(
      try dryRun.jsonObject()["pending"] as? [String],
      [
        "0001_initial.sql", "0002_committed_append.sql", "0003_checked_stack_changes.sql",
        "0004_presented_destinations.sql", "0005_journaled_draws.sql",
      ])
    assertOneLineError(
      try runCLI(["sessions", "--db", url]), contains: "There is no StackJournal journal")
    let applied = try runCLI(["migrate", "--json", "--db", url])
    XCTAssertEqual(applied.status, 0, applied.stderr)
    XCTAssertEqual(
      try applied.jsonObject()["applied"] as? [String],
      [
        "0001_initial.sql", "0002_committed_append.sql", "0003_checked_stack_changes.sql",
        "0004_presented_destinations.sql", "0005_journaled_draws.sql",
      ])
    XCTAssertEqual(try applied.jsonObject()["version"] as? Int, 5)
    XCTAssertEqual(try runCLI(["sessions", "--db", url]).status, 0)
    let again = try runCLI(["migrate", "--db", url])
    XCTAssertTrue(again.stdout.contains("Up to date: nothing to migrate."), again.stdout)
  }

  func testDemoOnPostgreSQLRefusesWhatItCannotDo() throws {
    _ = try recordBoth(actions: 0)
    assertOneLineError(
      try runCLI(["demo", "--db", url, "--session", "same"]),
      contains: "exists in postgres://")
    assertOneLineError(
      try runCLI(["demo", "--db", url, "--durability", "normal"]),
      contains: "--durability is for SQLite files")
    // A new session goes to the first free demo-N; STACKJOURNAL_DB names the journal too.
    let next = try runCLI(["demo", "--json"], environment: ["STACKJOURNAL_DB": url])
    XCTAssertEqual(next.status, 0, next.stderr)
    XCTAssertEqual(try next.jsonObject()["session"] as? String, "demo-1")
    XCTAssertEqual(try next.jsonObject()["database"] as? String, Self.withoutPassword(url))
    let commands = try XCTUnwrap(try next.jsonObject()["commands"] as? [String])
    XCTAssertTrue(commands.contains { $0.contains("verify --replay") }, "\(commands)")
    XCTAssertTrue(commands.contains { $0.contains("stackjournal export demo-1") }, "\(commands)")
    XCTAssertFalse(commands.joined().contains(":stackjournal@"), "no password in \(commands)")
  }

  func testExportAndImportMoveASessionBetweenBackends() throws {
    // A compacted session in a file: its history starts at its oldest kept snapshot.
    let source = directory.path("source.sqlite")
    XCTAssertEqual(
      try runCLI([
        "demo", "--db", source, "--session", "moved", "--actions", "40",
        "--snapshot-interval", "7",
      ]).status, 0)
    XCTAssertEqual(
      try runCLI(["compact", "moved", "--keep-snapshots", "3", "--db", source]).status, 0)
    let fromFile = directory.path("from-file.ndjson")
    XCTAssertEqual(try runCLI(["export", "moved", "--db", source, "-o", fromFile]).status, 0)

    // A dry run into a database without the journal's schema creates nothing.
    let dryRun = try runCLI(["import", fromFile, "--db", url, "--dry-run"])
    XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
    assertOneLineError(
      try runCLI(["sessions", "--db", url]), contains: "There is no StackJournal journal")
    let imported = try runCLI(["import", fromFile, "--db", url, "--json"])
    XCTAssertEqual(imported.status, 0, imported.stderr)
    XCTAssertEqual(try imported.jsonObject()["imported"] as? Bool, true)
    XCTAssertEqual(
      try imported.jsonObject()["database"] as? String, Self.withoutPassword(url))

    // Exported again from PostgreSQL: the same lines; the header differs in its time and the
    // source's schema version only.
    let fromPostgres = directory.path("from-postgres.ndjson")
    XCTAssertEqual(try runCLI(["export", "moved", "--db", url, "-o", fromPostgres]).status, 0)
    let a = try String(contentsOfFile: fromFile, encoding: .utf8).split(separator: "\n")
    let b = try String(contentsOfFile: fromPostgres, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(Array(a.dropFirst()), Array(b.dropFirst()))
    XCTAssertGreaterThan(a.count, 10)
    func header(_ line: Substring) throws -> String {
      var object = try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      object["exportedAt"] = nil
      object["schemaVersion"] = nil
      return try Self.canonical(object)
    }
    XCTAssertEqual(try header(a[0]), try header(b[0]))

    // The stacks at every kept sequence read the same from both.
    let shown = try runCLI(["show", "moved", "--json", "--db", url]).jsonObject()
    let head = try XCTUnwrap(shown["sequence"] as? Int)
    let sessions = try runCLI(["sessions", "--json", "--db", url]).jsonObject()
    let listed = try XCTUnwrap((sessions["sessions"] as? [[String: Any]])?.first)
    let base = head - (listed["entries"] as? Int ?? 0)
    XCTAssertGreaterThan(base, 0, "the session was compacted")
    for sequence in base...head {
      let arguments = ["show", "moved", "--at", String(sequence), "--json"]
      XCTAssertEqual(try timeless(arguments, db: source), try timeless(arguments, db: url))
    }
    XCTAssertEqual(try runCLI(["verify", "--db", url]).status, 0)

    // And back into a new file, under another name.
    let back = directory.path("back.sqlite")
    XCTAssertEqual(
      try runCLI(["import", fromPostgres, "--db", back, "--as", "returned"]).status, 0)
    let again = directory.path("again.ndjson")
    XCTAssertEqual(try runCLI(["export", "returned", "--db", back, "-o", again]).status, 0)
    let c = try String(contentsOfFile: again, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(Array(a.dropFirst()), Array(c.dropFirst()))
  }

  func testARefusedImportIntoPostgreSQLWritesNothing() throws {
    let source = directory.path("source.sqlite")
    XCTAssertEqual(
      try runCLI(["demo", "--db", source, "--session", "s", "--actions", "10"]).status, 0)
    let file = directory.path("s.ndjson")
    XCTAssertEqual(try runCLI(["export", "s", "--db", source, "-o", file]).status, 0)
    XCTAssertEqual(try runCLI(["import", file, "--db", url]).status, 0)
    func listing() throws -> String {
      try timeless(["sessions", "--json"], db: url)
    }
    let before = try listing()
    assertOneLineError(
      try runCLI(["import", file, "--db", url]), contains: "already exists in the target")
    // A file cut short, and one whose delta was edited, are refused before anything is written.
    var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
    let cut = directory.path("cut.ndjson")
    try (lines.dropLast().joined(separator: "\n") + "\n").write(
      toFile: cut, atomically: true, encoding: .utf8)
    assertOneLineError(try runCLI(["import", cut, "--db", url, "--as", "t"]), contains: "cut")
    let index = try XCTUnwrap(lines.firstIndex { $0.contains(#""popped":[]"#) })
    lines[index] = Substring(lines[index].replacingOccurrences(of: #""popped":[]"#, with: #""popped":[77]"#))
    let edited = directory.path("edited.ndjson")
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: edited, atomically: true, encoding: .utf8)
    XCTAssertNotEqual(try runCLI(["import", edited, "--db", url, "--as", "u"]).status, 0)
    XCTAssertEqual(try listing(), before, "nothing was imported")
  }

  func testInspectionWritesNothingAndRefusesAnEmptyDatabase() throws {
    // A schema with no journal in it: read-only commands refuse it and create nothing.
    for command in [["sessions"], ["show", "s"], ["log", "s"]] {
      let result = try runCLI(command + ["--db", url])
      XCTAssertNotEqual(result.status, 0, "\(command)")
      XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
      XCTAssertFalse(result.stderr.contains(":stackjournal@"), result.stderr)
    }
    // The first refusal created nothing: the schema is still missing.
    assertOneLineError(
      try runCLI(["sessions", "--db", url]),
      contains: "There is no StackJournal journal in postgres://")
  }

  func testAnUnknownSessionIsOneLineNamingTheServer() throws {
    _ = try recordBoth(actions: 0)
    assertOneLineError(
      try runCLI(["show", "nope", "--db", url]), contains: "There is no session nope in postgres://")
    assertOneLineError(
      try runCLI(["show", "same", "--at", "999", "--db", url]), contains: "no sequence 999")
  }

  static func withoutPassword(_ url: String) -> String {
    url.replacingOccurrences(of: ":stackjournal@", with: "@")
  }
}

extension Int {
  fileprivate var int64: Int64 { Int64(self) }
}
