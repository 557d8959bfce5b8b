import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackRestoration
import StackStorage
import XCTest

/// Regression tests of the CLI defects of the second hostile-but-fair probe: special output
/// paths, streams as input, permissions, full outputs, escape sequences in journal data, and
/// negative numbers. Each runs the built binary, under a timeout.
final class HostileCLITests: CLITestCase {
  private func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  private func fileType(_ path: String) -> mode_t? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT
  }

  // MARK: report -o on something that is not a regular file (item 1)

  func testReportToAFIFOWritesThroughItWithoutOpeningItToRead() throws {
    let (path, session) = try makeDemo()
    let fifo = directory.path("page.fifo")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let reader = FIFOReader(fifo)
    defer { reader.finish() }
    let result = try runCLI(["report", session, "--db", path, "-o", fifo], timeout: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    let page = reader.finish()
    XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"), String(page.prefix(100)))
    XCTAssertTrue(page.contains(session), "the page went through the FIFO")
    XCTAssertEqual(fileType(fifo), S_IFIFO, "the FIFO is still a FIFO")
    XCTAssertEqual(try files(), ["demo.sqlite", "page.fifo"], "no temporary file left")
  }

  func testReportToADeviceWritesThroughItAndLeavesTheDevice() throws {
    let (path, session) = try makeDemo()
    // A device node of our own (the same device as /dev/null), so a defect replaces it, never
    // the machine's /dev/null.
    let device = directory.path("null")
    var null = stat()
    XCTAssertEqual(stat("/dev/null", &null), 0)
    guard mknod(device, S_IFCHR | 0o666, null.st_rdev) == 0 else {
      throw XCTSkip("Cannot create a device node here (\(String(cString: strerror(errno)))).")
    }
    let result = try runCLI(["report", session, "--db", path, "-o", device], timeout: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(fileType(device), S_IFCHR, "the device is still a character device")
    XCTAssertEqual(try files(), ["demo.sqlite", "null"], "no temporary file left")
  }

  // MARK: import from a stream (item 7)

  func testImportReadsStandardInputInOnePass() throws {
    let (path, session) = try makeDemo(actions: 20)
    let export = try runCLI(["export", session, "--db", path])
    XCTAssertEqual(export.status, 0, export.stderr)
    for (index, name) in ["-", "/dev/stdin"].enumerated() {
      let target = directory.path("from-stdin-\(index).sqlite")
      let result = try runCLIReading(
        Data(export.stdout.utf8), ["import", name, "--db", target, "--json"])
      XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
      XCTAssertEqual(try result.jsonObject()["imported"] as? Bool, true, name)
      let verify = try runCLI(["verify", "--db", target])
      XCTAssertEqual(verify.status, 0, "\(name): \(verify.stdout)")
    }
    let empty = try runCLIReading(Data(), ["import", "-", "--db", directory.path("e.sqlite")])
    assertOneLineError(empty, contains: "standard input is empty")
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("e.sqlite")))
  }

  func testImportReadsANamedFIFOInOnePass() throws {
    let (path, session) = try makeDemo()
    let export = try runCLI(["export", session, "--db", path])
    XCTAssertEqual(export.status, 0, export.stderr)
    let fifo = directory.path("export.fifo")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let writer = FIFOWriter(fifo, Data(export.stdout.utf8))
    defer { writer.finish() }
    let target = directory.path("imported.sqlite")
    let result = try runCLI(["import", fifo, "--db", target], timeout: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try runCLI(["verify", "--db", target]).status, 0)
    XCTAssertEqual(fileType(fifo), S_IFIFO)
  }

  // MARK: report page permissions (item 8)

  func testAReportPageIsReadableByItsOwnerOnlyWhateverTheUmask() throws {
    let (path, session) = try makeDemo()
    let page = directory.path("page.html")
    let created = try runCLIThroughShell(
      ["report", session, "--db", path, "-o", page], setup: "umask 000", timeout: 60)
    XCTAssertEqual(created.status, 0, created.stderr)
    XCTAssertEqual(try mode(page), 0o600, "a new page")
    let rewritten = try runCLIThroughShell(
      ["report", session, "--db", path, "-o", page], setup: "umask 022", timeout: 60)
    XCTAssertEqual(rewritten.status, 0, rewritten.stderr)
    XCTAssertEqual(try mode(page), 0o600, "a rewritten page keeps its mode")
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: page)
    let shared = try runCLIThroughShell(
      ["report", session, "--db", path, "-o", page], setup: "umask 000", timeout: 60)
    XCTAssertEqual(shared.status, 0, shared.stderr)
    XCTAssertEqual(try mode(page), 0o640, "a mode the owner chose stays")
  }

  // MARK: full standard output (items 12 and 16)

  func testAReportToAFullStandardOutputFailsWithAMessage() throws {
    let (path, session) = try makeDemo()
    let result = try runCLIThroughShell(
      ["report", session, "--db", path, "-o", "-"], redirection: "> /dev/full", timeout: 60)
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertTrue(
      result.stderr.contains("cannot write to standard output: No space left on device"),
      result.stderr)
    XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr)
  }

  func testADemoToAFullStandardOutputFailsWithAMessage() throws {
    for extra in [[], ["--json"]] {
      let path = directory.path("demo\(extra.count).sqlite")
      let result = try runCLIThroughShell(
        ["demo", "--db", path] + extra, redirection: "> /dev/full", timeout: 60)
      XCTAssertEqual(result.status, 2, "\(extra): \(result.stderr)")
      XCTAssertTrue(
        result.stderr.contains("cannot write to standard output: No space left on device"),
        "\(extra): \(result.stderr)")
    }
  }

  // MARK: escape sequences on a colour terminal (item 14)

  func testEscapeSequencesInJournalDataNeverReachAColourTerminal() throws {
    let (path, session) = try makeDemo()
    let hidden = "push\u{1B}[8mHIDDEN\u{1B}[0m\u{9B}2J\u{7}"
    try tamper(
      path,
      "UPDATE journal SET type = ? WHERE session_number = "
        + "(SELECT number FROM sessions WHERE id = ?) AND sequence = 2",
      arguments: [hidden, session])
    let result = try runCLIOnATerminal(["log", session, "--db", path])
    XCTAssertEqual(result.status, 0, result.stdout)
    let line = try XCTUnwrap(
      result.stdout.components(separatedBy: "\n").first {
        $0.contains("HIDDEN")
      })
    XCTAssertTrue(line.contains("\u{1B}[36m"), "the terminal colours: \(line.debugDescription)")
    XCTAssertTrue(
      line.contains(#"push\u{1B}[8mHIDDEN\u{1B}[0m\u{9B}2J\u{7}"#), line.debugDescription)
    XCTAssertFalse(line.contains("\u{1B}[8m"), line.debugDescription)
    XCTAssertFalse(line.contains("\u{9B}"), line.debugDescription)
    XCTAssertFalse(line.contains("\u{7}"), line.debugDescription)
  }

  // MARK: log --follow with a filter (item 15)

  func testFollowingAFilteredLogWarnsOfNoCompactionOfEntriesItWouldNotPrint() throws {
    let (path, session) = try makeDemo(snapshotInterval: 3)
    let compact = try runCLI(["compact", session, "--keep-snapshots", "1", "--db", path])
    XCTAssertEqual(compact.status, 0, compact.stderr)
    let follow = try CLIProcess([
      "log", session, "--follow", "--ndjson", "--type", "noSuchAction", "--poll-interval", "20",
      "--db", path,
    ])
    defer { follow.stop() }
    Thread.sleep(forTimeInterval: 1.5)
    XCTAssertTrue(follow.isRunning, follow.standardError)
    XCTAssertEqual(follow.standardError, "")
    XCTAssertEqual(follow.lines, [])
  }

  // MARK: negative numbers (item 17)

  func testEveryCountAndSequenceOptionRefusesANegativeNumberClearly() throws {
    let db = ["--db", directory.path("none.sqlite")]
    let cases: [(arguments: [String], option: String)] = [
      (["report", "s", "--from", "-1"], "--from"), (["report", "s", "--to", "-1"], "--to"),
      (["report", "s", "--max-entries", "-1"], "--max-entries"),
      (["report", "s", "--max-bytes", "-1"], "--max-bytes"),
      (["demo", "--actions", "-1"], "--actions"),
      (["demo", "--snapshot-interval", "-1"], "--snapshot-interval"),
      (["import", "f", "--payload-version", "-1"], "--payload-version"),
      (["log", "s", "--from", "-1"], "--from"), (["log", "s", "--to", "-1"], "--to"),
      (["log", "s", "-n", "-1"], "-n"), (["show", "s", "--at", "-1"], "--at"),
      (["compact", "s", "--keep-snapshots", "-1"], "--keep-snapshots"),
      (["demo-app", "replay", "s", "--to", "-1"], "--to"),
    ]
    for (arguments, option) in cases {
      let result = try runCLI(arguments + db, timeout: 30)
      XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
      XCTAssertFalse(result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
      XCTAssertTrue(
        result.stderr.contains("Error: \(option) -1: "), "\(arguments): \(result.stderr)")
      XCTAssertTrue(
        result.stderr.contains(" or more") || result.stderr.contains("sequences start at 0"),
        "\(arguments): \(result.stderr)")
    }
  }
}
