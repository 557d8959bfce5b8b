import Foundation
import GRDB
import StackJournalTestSupport
import StackStorage
import XCTest

/// What the commands say of the draws a journal keeps: `log` per entry, `show` and `verify` of
/// entries written before draws were journaled, `import` of a forged draw list.
final class DrawsCommandTests: CLITestCase {
  /// The key of entry `sequence` of `session`, for a statement on `journal`.
  private func key(_ session: String, _ sequence: Int) -> String {
    "(SELECT number FROM sessions WHERE id = '\(session)') * 4294967296 + \(sequence)"
  }

  /// Sets the stored draws of entry `sequence` (NULL for every other entry).
  private func setDraws(_ path: String, _ session: String, _ sequence: Int, _ draws: String)
    throws
  {
    try tamper(path, "UPDATE journal SET draws = NULL")
    try tamper(
      path, "UPDATE journal SET draws = ? WHERE key = \(key(session, sequence))",
      arguments: [draws])
  }

  /// Two UUIDs, a date and an app's draw whose name holds an escape sequence and a newline, in
  /// an environment.
  private static let draws = #"{"environment":{"calendar":{"firstWeekday":2,"#
    + #""identifier":"gregorian","locale":"fr_FR","minimumDaysInFirstWeek":4,"#
    + #""timeZone":"Europe/Paris"},"locale":"fr_FR","timeZone":"Europe/Paris"},"values":["#
    + #"{"uuid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"},"#
    + #"{"uuid":"00000000-0000-0000-0000-000000000001"},{"date":786123456.789},"#
    + #"{"value":{"json":"4","name":"dice\u001b[2J\nroll"}}]}"#

  func testLogSaysWhatEachEntryDrewAndEscapesTheNames() throws {
    let (path, session) = try makeDemo()
    try setDraws(path, session, 2, Self.draws)
    let result = try runCLI(["log", session, "--db", path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines.count, 12, "one line per entry: \(result.stdout)")
    let second = String(lines[2])
    XCTAssertTrue(
      second.contains(#"drew 2 uuid, 1 date, 1 dice\u{1B}[2J\u{A}roll, recorded the environment"#),
      second)
    XCTAssertFalse(result.stdout.contains("\u{1B}"), "no escape reaches the terminal")
    XCTAssertFalse(lines[3].contains("drew"), String(lines[3]))

    let json = try runCLI(["log", session, "--db", path, "--json"]).jsonObject()
    let entries = try XCTUnwrap(json["entries"] as? [[String: Any]])
    XCTAssertEqual(entries.count, 10)
    let values = try XCTUnwrap(entries[1]["draws"] as? [[String: Any]])
    XCTAssertEqual(values.count, 4)
    XCTAssertEqual(values[0]["uuid"] as? String, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    XCTAssertEqual(values[2]["date"] as? Double, 786123456.789)
    XCTAssertEqual(
      (values[3]["value"] as? [String: Any])?["name"] as? String, "dice\u{1B}[2J\nroll")
    XCTAssertEqual(
      (entries[1]["environment"] as? [String: Any])?["timeZone"] as? String, "Europe/Paris")
    XCTAssertEqual((entries[2]["draws"] as? [Any])?.count, 0)
    XCTAssertTrue(entries[2]["environment"] is NSNull)

    // Draws that cannot be read are said so; the entry is printed and `verify` reports them.
    try setDraws(path, session, 3, #"{"values":[{"uuid":"nope"}]}"#)
    let damaged = try runCLI(["log", session, "--db", path])
    XCTAssertEqual(damaged.status, 0, damaged.stderr)
    XCTAssertTrue(damaged.stdout.split(separator: "\n")[3].contains("draws cannot be read"))
    let verify = try runCLI(["verify", "--db", path])
    XCTAssertEqual(verify.status, 1, verify.stdout)
    XCTAssertTrue(verify.stdout.contains("the entry's draws cannot be read"), verify.stdout)
  }

  func testShowAndVerifyNoteEntriesWrittenBeforeDrawsWereJournaled() throws {
    let (path, session) = try makeDemo()
    let note = "entries 1–4 were written before draws were journaled: they replay with this "
      + "process's dependencies"
    XCTAssertFalse(try runCLI(["show", session, "--db", path]).stdout.contains("draws"))
    try tamper(path, "UPDATE sessions SET draws_from = 5")
    let show = try runCLI(["show", session, "--db", path])
    XCTAssertEqual(show.status, 0, show.stderr)
    XCTAssertTrue(show.stdout.contains("Note: \(note)."), show.stdout)
    XCTAssertEqual(
      try runCLI(["show", session, "--db", path, "--json"]).jsonObject()["drawsJournaledFrom"]
        as? Int, 5)
    let verify = try runCLI(["verify", "--db", path])
    XCTAssertEqual(verify.status, 0, verify.stdout)
    XCTAssertTrue(verify.stdout.contains("    note: \(note)\n"), verify.stdout)
    let sessions = try runCLI(["verify", "--db", path, "--json"]).jsonObject()["sessions"]
    XCTAssertEqual(
      (sessions as? [[String: Any]])?.first?["drawsJournaledFrom"] as? Int, 5)
    try tamper(path, "UPDATE sessions SET draws_from = 2")
    XCTAssertTrue(
      try runCLI(["show", session, "--db", path]).stdout.contains(
        "Note: entry 1 was written before draws were journaled: it replays with this process's "
          + "dependencies."))
  }

  func testAnExportCarriesDrawsAndAForgedDrawListIsRefusedNamingTheEntry() throws {
    let (path, session) = try makeDemo()
    try setDraws(path, session, 2, Self.draws)
    let export = try runCLI(["export", session, "--db", path])
    XCTAssertEqual(export.status, 0, export.stderr)
    let lines = try export.jsonLines()
    XCTAssertEqual(lines[0]["formatVersion"] as? Int, 3)
    XCTAssertEqual((lines[0]["session"] as? [String: Any])?["drawsFrom"] as? Int, 1)
    let entry = try XCTUnwrap(lines.first { $0["kind"] as? String == "entry" && $0["sequence"] as? Int == 2 })
    XCTAssertEqual(((entry["draws"] as? [String: Any])?["values"] as? [Any])?.count, 4)
    let file = directory.path("demo.ndjson")
    try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)
    let target = directory.path("copy.sqlite")
    let imported = try runCLI(["import", file, "--db", target])
    XCTAssertEqual(imported.status, 0, imported.stderr)
    let copied = try runCLI(["log", session, "--db", target, "--json"]).jsonObject()
    XCTAssertEqual(
      ((copied["entries"] as? [[String: Any]])?[1]["draws"] as? [Any])?.count, 4)

    var text = export.stdout.split(separator: "\n").map(String.init)
    let index = try XCTUnwrap(text.firstIndex { $0.contains(#""kind":"entry","sequence":2,"#) })
    text[index] = text[index].replacingOccurrences(
      of: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", with: "E621E1F8-not-a-uuid")
    let forged = directory.path("forged.ndjson")
    try text.joined(separator: "\n").write(toFile: forged, atomically: true, encoding: .utf8)
    let forgedTarget = directory.path("forged.sqlite")
    let refused = try runCLI(["import", forged, "--db", forgedTarget])
    assertOneLineError(refused, contains: "entry 2, whose draws cannot be read")
    XCTAssertTrue(refused.stderr.contains("is not a UUID"), refused.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: forgedTarget))
    // Into an existing journal: nothing is written either.
    let before = try fileBytes(target)
    let again = try runCLI(["import", forged, "--db", target, "--as", "forged"])
    assertOneLineError(again, contains: "entry 2, whose draws cannot be read")
    XCTAssertEqual(try fileBytes(target), before)
  }
}
