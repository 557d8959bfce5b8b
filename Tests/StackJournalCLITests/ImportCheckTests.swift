import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

/// `import` checks a file against every constraint of the schema before it writes: a file that
/// breaks one is refused with the line at fault, never with SQLite's constraint text and the
/// path of the temporary journal it was building. Each test edits a real export and runs the
/// built binary.
final class ImportCheckTests: CLITestCase {
  /// The lines of an export of the demo's session (head 10, one snapshot, at sequence 0).
  private func exportLines() throws -> [String] {
    let (path, session) = try makeDemo(snapshotInterval: 100)
    let export = try runCLI(["export", session, "--db", path])
    XCTAssertEqual(export.status, 0, export.stderr)
    return export.stdout.split(separator: "\n").map(String.init)
  }

  /// `line` with `old` replaced by `new`, which must be there.
  private func replacing(_ old: String, with new: String, in line: String) -> String {
    XCTAssertTrue(line.contains(old), "\(old) is in \(line.prefix(120))")
    return line.replacingOccurrences(of: old, with: new)
  }

  /// The header and snapshot of the export, as a session with no entries whose base and head
  /// are `base`.
  private func withoutEntries(_ lines: [String], base: String = "0") -> [String] {
    var header = replacing("\"headSequence\":10", with: "\"headSequence\":\(base)", in: lines[0])
    header = replacing("\"baseSequence\":0", with: "\"baseSequence\":\(base)", in: header)
    header = replacing("\"entries\":10", with: "\"entries\":0", in: header)
    let snapshot = replacing("\"sequence\":0", with: "\"sequence\":\(base)", in: lines[1])
    return [header, snapshot]
  }

  private func write(_ lines: [String], to path: String) throws {
    let text = lines.joined(separator: "\n") + "\n"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// Imports `lines` into a new file and expects a one-line refusal that contains `text`, names
  /// no temporary file and leaves no file.
  private func assertRefused(
    _ lines: [String], contains text: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let export = directory.path("edited.ndjson")
    try write(lines, to: export)
    let target = directory.path("target.sqlite")
    let result = try runCLI(["import", export, "--db", target])
    assertOneLineError(result, contains: text, file: file, line: line)
    XCTAssertFalse(result.stderr.contains(".import-"), result.stderr, file: file, line: line)
    XCTAssertFalse(result.stderr.contains("constraint"), result.stderr, file: file, line: line)
    XCTAssertFalse(FileManager.default.fileExists(atPath: target), file: file, line: line)
  }

  // MARK: The constraints of the schema

  func testANegativeForkSequenceIsRefusedWithItsLine() throws {
    var lines = try exportLines()
    lines[0] = replacing(
      "\"forkedFrom\":null,\"forkedAt\":null", with: "\"forkedFrom\":\"origin\",\"forkedAt\":-1",
      in: lines[0])
    try assertRefused(
      lines, contains: "Line 1 of \(directory.path("edited.ndjson")) has a `forkedAt` of -1")
  }

  func testANegativeBaseSequenceIsRefusedWithItsLine() throws {
    let lines = withoutEntries(try exportLines(), base: "-1")
    try assertRefused(lines, contains: "Line 1 of")
    try assertRefused(lines, contains: "has a `baseSequence` of -1")
  }

  func testAStackPathListedTwiceIsRefusedWithItsLine() throws {
    var lines = withoutEntries(try exportLines())
    let stacks = try XCTUnwrap(lines[1].range(of: "\"stacks\":["))
    let rest = lines[1][stacks.upperBound...]
    let end = try XCTUnwrap(rest.range(of: "}]}", options: .backwards))
    let stack = String(rest[rest.startIndex..<end.lowerBound]) + "}"
    lines[1] = replacing(
      "\"stacks\":[" + stack, with: "\"stacks\":[" + stack + "," + stack, in: lines[1])
    try assertRefused(lines, contains: "Line 2 of")
    try assertRefused(lines, contains: "lists the stack `path` twice")
  }

  /// Paths `café` in NFC and in NFD are two rows to SQLite but one path to the walk and the
  /// check, which find stacks through Swift's `String`: refused with the line, not as a stack
  /// that "holds #0 twice" after the rows were written.
  func testStackPathsThatDifferOnlyInTheirCompositionAreRefusedWithTheirLine() throws {
    var lines = withoutEntries(try exportLines())
    lines[1] = replacing(
      #""path":{"elements""#, with: #""caf\#u{E9}":{"elements""#, in: lines[1])
    let stacks = try XCTUnwrap(lines[1].range(of: "\"stacks\":["))
    let rest = lines[1][stacks.upperBound...]
    let end = try XCTUnwrap(rest.range(of: "}]}", options: .backwards))
    let stack = String(rest[rest.startIndex..<end.lowerBound]) + "}"
    let composed = stack.replacingOccurrences(of: #""path":"path""#, with: #""path":"caf\#u{E9}""#)
    let decomposed = stack.replacingOccurrences(
      of: #""path":"path""#, with: #""path":"cafe\#u{301}""#)
    lines[1] = replacing(
      "\"stacks\":[" + stack, with: "\"stacks\":[" + composed + "," + decomposed, in: lines[1])
    try assertRefused(lines, contains: "Line 2 of")
    try assertRefused(lines, contains: "differ only in how their characters are composed")
  }

  func testAnIDListedTwiceInAStackIsRefusedWithItsLine() throws {
    var lines = withoutEntries(try exportLines())
    let element = #"{"caseName":"counter","id":0,"state":"{\"counter\":{\"_0\":{\"count\":42}}}"}"#
    lines[1] = replacing(element, with: element + "," + element, in: lines[1])
    try assertRefused(lines, contains: "Line 2 of")
    try assertRefused(lines, contains: "holds the ID #0 twice in the stack `path`")
  }

  func testASecondSnapshotAtTheSameSequenceIsRefusedWithItsLine() throws {
    var lines = withoutEntries(try exportLines())
    lines[0] = replacing("\"snapshots\":1", with: "\"snapshots\":2", in: lines[0])
    lines.append(lines[1])
    try assertRefused(lines, contains: "Line 3 of")
    try assertRefused(lines, contains: "holds a second snapshot at sequence 0")
  }

  func testASequenceAboveWhatAnSQLiteJournalHoldsIsRefusedBeforeWriting() throws {
    var lines = try exportLines()
    let base = "4294967295"
    var header = replacing("\"headSequence\":10", with: "\"headSequence\":4294967296", in: lines[0])
    header = replacing("\"baseSequence\":0", with: "\"baseSequence\":\(base)", in: header)
    header = replacing("\"entries\":10", with: "\"entries\":1", in: header)
    let snapshot = replacing("\"sequence\":0", with: "\"sequence\":\(base)", in: lines[1])
    let entry = replacing("\"sequence\":1,", with: "\"sequence\":4294967296,", in: lines[2])
    lines = [header, snapshot, entry]
    try assertRefused(lines, contains: "verdict impossible")
    try assertRefused(lines, contains: "head sequence 4294967296 (line 1) is above 4294967295")
  }

  // MARK: Integers, forks and times

  func testIntegersNotWrittenAsJSONWritesThemAreRefused() throws {
    let lines = try exportLines()
    for (old, new) in [("\"headSequence\":10", "\"headSequence\":+10"),
      ("\"headSequence\":10", "\"headSequence\":010"), ("\"entries\":10", "\"entries\":1e1")]
    {
      var edited = lines
      edited[0] = replacing(old, with: new, in: lines[0])
      try assertRefused(edited, contains: "Line 1 of")
      try assertRefused(edited, contains: "not an integer as JSON writes one")
    }
    var edited = lines
    edited[2] = replacing("\"version\":1,", with: "\"version\":01,", in: lines[2])
    try assertRefused(edited, contains: "Line 3 of")
  }

  func testAForkSequenceWithoutItsOriginIsRefused() throws {
    var lines = try exportLines()
    lines[0] = replacing("\"forkedAt\":null", with: "\"forkedAt\":3", in: lines[0])
    try assertRefused(lines, contains: "Line 1 of")
    try assertRefused(lines, contains: "has a `forkedAt` of 3 but no `forkedFrom`")
  }

  /// The library records such a session when the clock goes back after its creation, so the
  /// verdict is risky, not impossible: refused unless forced, naming the lines.
  func testACreationTimeLaterThanEveryEntryIsRefusedUnlessForced() throws {
    var lines = try exportLines()
    let created = try XCTUnwrap(lines[0].range(of: #""createdAt":""#))
    let time = lines[0][created.upperBound...].prefix(24)
    lines[0] = replacing(
      #""createdAt":"\#(time)""#, with: #""createdAt":"2999-01-01T00:00:00.000Z""#, in: lines[0])
    try assertRefused(lines, contains: "verdict risky")
    try assertRefused(
      lines,
      contains: "line 1 gives the session's createdAt as 2999-01-01T00:00:00.000Z, later than "
        + "every entry (the latest, line ")
    let export = directory.path("edited.ndjson")
    let forced = try runCLI(["import", export, "--db", directory.path("target.sqlite"), "--force"])
    XCTAssertEqual(forced.status, 0, forced.stderr)
  }

  /// The checks refuse only what a journal cannot hold: an export of a fork imports.
  func testAForkWithItsOriginAndSequenceImports() throws {
    var lines = try exportLines()
    lines[0] = replacing(
      "\"forkedFrom\":null,\"forkedAt\":null", with: "\"forkedFrom\":\"origin\",\"forkedAt\":0",
      in: lines[0])
    let export = directory.path("fork.ndjson")
    try write(lines, to: export)
    let result = try runCLI(["import", export, "--db", directory.path("target.sqlite")])
    XCTAssertEqual(result.status, 0, result.stderr)
  }
}
