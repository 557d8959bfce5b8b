import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

/// Every stored field a command relies on is checked the same way where it enters (import),
/// where it is checked (`verify`) and where it leaves (`export`): what one refuses, the others
/// neither accept nor call clean; and no stored number makes a command trap.
final class StoredFieldTests: CLITestCase {
  private func exportLines(_ session: String, _ path: String) throws -> [String] {
    let export = try runCLI(["export", session, "--db", path])
    XCTAssertEqual(export.status, 0, export.stderr)
    return export.stdout.split(separator: "\n").map(String.init)
  }

  /// Writes `lines` with the header's session metadata replaced by `metadata` (raw bytes).
  private func exportFile(_ lines: [String], metadata: [UInt8]) throws -> String {
    var bytes = Array(lines[0].utf8)
    func find(_ text: String) throws -> Int {
      let marker = Array(text.utf8)
      return try XCTUnwrap(
        (0...(bytes.count - marker.count)).first { Array(bytes[$0..<$0 + marker.count]) == marker },
        "the header holds no \(text)")
    }
    let start = try find("\"metadata\":") + "\"metadata\":".utf8.count
    bytes.replaceSubrange(start..<(try find(",\"forkedFrom\"")), with: metadata)
    var file = Data(bytes)
    for line in lines.dropFirst() { file.append(Data(("\n" + line).utf8)) }
    file.append(Data("\n".utf8))
    let path = directory.path("edited-\(UUID().uuidString).ndjson")
    try file.write(to: URL(fileURLWithPath: path))
    return path
  }

  func testImportRefusesSessionMetadataThatIsNotStoredJSON() throws {
    let (path, session) = try makeDemo(actions: 2)
    let lines = try exportLines(session, path)
    let target = directory.path("target.sqlite")
    let cases: [(String, [UInt8])] = [
      ("invalid UTF-8", Array("\"caf".utf8) + [0xFF] + Array("\"".utf8)),
      ("a raw control character", Array("\"a".utf8) + [0x07] + Array("b\"".utf8)),
      ("a raw NUL", Array("\"a".utf8) + [0x00] + Array("b\"".utf8)),
      ("a broken array", Array("[1,}".utf8)),
      ("deep nesting", Array(repeating: UInt8(ascii: "["), count: 10_000)
        + Array(repeating: UInt8(ascii: "]"), count: 10_000)),
    ]
    for (index, (name, metadata)) in cases.enumerated() {
      let file = try exportFile(lines, metadata: metadata)
      let refused = directory.path("refused-\(index).sqlite")
      let result = try runCLI(["import", file, "--db", refused], timeout: 60)
      XCTAssertEqual(result.status, 2, "\(name): \(result.stdout) \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("metadata"), "\(name): \(result.stderr)")
      if FileManager.default.fileExists(atPath: refused) {
        let sessions = try runCLI(["sessions", "--json", "--db", refused])
        XCTAssertFalse(sessions.stdout.contains(session), "\(name): a refused import left a session")
      }
    }
    let fine = try exportFile(lines, metadata: Array("{\"user\":\"ada\"}".utf8))
    let imported = try runCLI(["import", fine, "--db", target], timeout: 60)
    XCTAssertEqual(imported.status, 0, imported.stderr)
  }

  func testVerifyReportsAndExportRefusesMetadataThatIsNotStoredJSON() throws {
    let (path, session) = try makeDemo(actions: 2)
    for (name, sql) in [
      ("text that is not JSON", "UPDATE sessions SET metadata = '[}'"),
      ("a BLOB", "UPDATE sessions SET metadata = X'7B7D'"),
      ("a raw control character", "UPDATE sessions SET metadata = '\"a' || char(7) || 'b\"'"),
    ] {
      try tamper(path, sql)
      let verify = try runCLI(["verify", "--db", path], timeout: 60)
      XCTAssertEqual(verify.status, 1, "\(name): \(verify.stdout)")
      XCTAssertTrue(verify.stdout.contains("metadata"), "\(name): \(verify.stdout)")
      let export = try runCLI(["export", session, "--db", path], timeout: 60)
      assertOneLineError(export, contains: "metadata")
    }
  }

  func testVerifyReportsACreationTimeThatIsNotATime() throws {
    let (path, _) = try makeDemo(actions: 2)
    XCTAssertEqual(try runCLI(["verify", "--db", path]).status, 0)
    try tamper(path, "UPDATE sessions SET created_at = 'yesterday'")
    let verify = try runCLI(["verify", "--db", path, "--json"], timeout: 60)
    XCTAssertEqual(verify.status, 1, verify.stdout + verify.stderr)
    XCTAssertTrue(verify.stdout.contains("yesterday"), verify.stdout)
  }

  func testAnEntryAtTheLargestSequenceIsReportedAndTrapsNoCommand() throws {
    let (path, session) = try makeDemo(actions: 4)
    // The largest sequence a journal key holds (schema 4): 2³² − 1.
    try tamper(
      path,
      "UPDATE journal SET key = (key >> 32 << 32) + 4294967295 WHERE key = "
        + "(SELECT max(key) FROM journal)")
    let verify = try runCLI(["verify", "--db", path], timeout: 60)
    XCTAssertEqual(verify.status, 1, verify.stdout + verify.stderr)
    XCTAssertTrue(verify.stdout.contains("4294967295"), verify.stdout)
    for command in [
      ["export", session], ["compact", session, "--keep-snapshots", "1", "--dry-run"],
      ["show", session, "--at-time", "now"], ["show", session], ["log", session, "--json"],
      ["sessions", "--json"], ["stats"],
    ] {
      let result = try runCLI(command + ["--db", path], timeout: 60)
      XCTAssertTrue(
        [0, 1, 2].contains(result.status), "\(command) ended with \(result.status): \(result.stderr)")
      XCTAssertFalse(result.stderr.contains("Fatal error"), "\(command): \(result.stderr)")
    }
  }

  func testDeepNestingStoredByHandCrashesNoReader() throws {
    let (path, session) = try makeDemo(actions: 3)
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    try tamper(path, "UPDATE sessions SET metadata = ?", arguments: [deep])
    try tamper(path, "UPDATE stack_elements SET state = ?", arguments: [deep])
    try tamper(path, "UPDATE journal SET payload = ?", arguments: [deep])
    for command in [
      ["sessions", "--json"], ["sessions"], ["show", session], ["show", session, "--json"],
      ["log", session, "--json"], ["log", session], ["report", session, "-o", "-"],
      ["export", session], ["verify"],
    ] {
      let result = try runCLI(command + ["--db", path], timeout: 60)
      XCTAssertTrue(
        [0, 1, 2].contains(result.status), "\(command) ended with \(result.status): \(result.stderr)")
    }
    let verify = try runCLI(["verify", "--db", path], timeout: 60)
    XCTAssertEqual(verify.status, 1, verify.stdout)
    XCTAssertTrue(verify.stdout.contains("deeper than 512"), verify.stdout)
  }
}
