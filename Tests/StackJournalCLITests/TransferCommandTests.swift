import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

final class TransferCommandTests: CLITestCase {
  func testExportThenImportIntoANewFileReproducesTheSession() throws {
    let (path, session) = try makeDemo(snapshotInterval: 3)
    let export = try runCLI(["export", session, "--db", path])
    XCTAssertEqual(export.status, 0, export.stderr)
    let lines = try export.jsonLines()
    XCTAssertEqual(lines[0]["kind"] as? String, "header")
    XCTAssertEqual(lines[0]["format"] as? String, "stackjournal-session")
    XCTAssertEqual(lines[0]["formatVersion"] as? Int, 3)
    XCTAssertEqual(lines[0]["schemaVersion"] as? Int, SQLiteJournal.latestSchemaVersion)
    XCTAssertEqual(lines[0]["payloadVersions"] as? NSDictionary, ["min": 1, "max": 1])
    XCTAssertEqual(lines.filter { $0["kind"] as? String == "entry" }.count, 10)
    XCTAssertEqual(lines.filter { $0["kind"] as? String == "snapshot" }.count, 4)
    let file = directory.path("demo-1.ndjson")
    try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)

    let target = directory.path("target.sqlite")
    let imported = try runCLI(["import", file, "--db", target, "--json"])
    XCTAssertEqual(imported.status, 0, imported.stderr)
    let report = try imported.jsonObject()
    XCTAssertEqual(report["verdict"] as? String, "fine")
    XCTAssertEqual(report["imported"] as? Bool, true)
    for sequence in ["0", "5", "10"] {
      let original = try runCLI(["show", session, "--at", sequence, "--db", path, "--json"])
      let copy = try runCLI(["show", session, "--at", sequence, "--db", target, "--json"])
      XCTAssertEqual(
        try original.jsonObject()["stacks"] as? NSArray, try copy.jsonObject()["stacks"] as? NSArray
      )
    }
    XCTAssertEqual(try runCLI(["verify", "--db", target]).status, 0)
    let again = try runCLI(["export", session, "--db", target])
    XCTAssertEqual(
      again.stdout.split(separator: "\n").dropFirst(),
      export.stdout.split(separator: "\n").dropFirst(),
      "the same lines after the header")
  }

  func testAnExistingSessionIsRefusedUnlessImportedUnderAnotherIdentifier() throws {
    let (path, session) = try makeDemo()
    let file = directory.path("export.ndjson")
    XCTAssertEqual(try runCLI(["export", session, "--db", path, "-o", file]).status, 0)
    let before = try fileBytes(path)
    let refused = try runCLI(["import", file, "--db", path])
    assertOneLineError(refused, contains: "verdict impossible")
    XCTAssertTrue(refused.stderr.contains("--as"))
    XCTAssertEqual(try fileBytes(path), before)
    let renamed = try runCLI(["import", file, "--db", path, "--as", "copy"])
    XCTAssertEqual(renamed.status, 0, renamed.stderr)
    XCTAssertTrue(renamed.stdout.contains("Imported as session copy"), renamed.stdout)
    let sessions = try runCLI(["sessions", "--db", path, "--json"]).jsonObject()
    XCTAssertEqual((sessions["sessions"] as? [[String: Any]])?.count, 2)
  }

  func testANewerPayloadVersionIsRiskyAndNeedsForce() throws {
    let (path, session) = try makeDemo()
    let file = directory.path("export.ndjson")
    XCTAssertEqual(try runCLI(["export", session, "--db", path, "-o", file]).status, 0)
    let target = directory.path("target.sqlite")
    let dryRun = try runCLI([
      "import", file, "--db", target, "--payload-version", "0", "--dry-run", "--json",
    ])
    XCTAssertEqual(dryRun.status, 2)
    XCTAssertTrue(dryRun.stderr.contains("verdict risky"), dryRun.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: target))
    let refused = try runCLI(["import", file, "--db", target, "--payload-version", "0"])
    assertOneLineError(refused, contains: "--force imports anyway")
    XCTAssertFalse(FileManager.default.fileExists(atPath: target), "no file left behind")
    let forced = try runCLI(["import", file, "--db", target, "--payload-version", "0", "--force"])
    XCTAssertEqual(forced.status, 0, forced.stderr)
    XCTAssertTrue(forced.stdout.contains("Verdict: risky (forced)"), forced.stdout)
  }

  func testANewerFormatIsImpossible() throws {
    let (path, session) = try makeDemo()
    var lines = try runCLI(["export", session, "--db", path]).stdout.split(separator: "\n")
      .map(String.init)
    lines[0] = lines[0].replacingOccurrences(of: "\"formatVersion\":3", with: "\"formatVersion\":9")
    let file = directory.path("future.ndjson")
    try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let target = directory.path("target.sqlite")
    let result = try runCLI(["import", file, "--db", target])
    assertOneLineError(result, contains: "impossible")
    XCTAssertFalse(FileManager.default.fileExists(atPath: target))
  }

  func testAMalformedLineIsReportedWithItsNumberAndNothingIsWritten() throws {
    let (path, session) = try makeDemo()
    var lines = try runCLI(["export", session, "--db", path]).stdout.split(separator: "\n")
      .map(String.init)
    lines[6] = String(lines[6].dropLast(3))
    let file = directory.path("broken.ndjson")
    try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let before = try fileBytes(path)
    let result = try runCLI(["import", file, "--db", path, "--as", "copy"])
    assertOneLineError(result, contains: "Line 7 of \(file)")
    XCTAssertEqual(try fileBytes(path), before)

    // A line that parses but breaks the journal: a sequence out of order.
    lines = try runCLI(["export", session, "--db", path]).stdout.split(separator: "\n")
      .map(String.init)
    lines.swapAt(3, 4)
    try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let target = directory.path("target.sqlite")
    let swapped = try runCLI(["import", file, "--db", target])
    assertOneLineError(swapped, contains: "Line 4 of")
    XCTAssertFalse(FileManager.default.fileExists(atPath: target))
  }

  /// The error of an import on another thread.
  private final class Outcome: @unchecked Sendable {
    var error: (any Error)?
  }

  func testAnImportRemovesNoJournalThatAppearedAtItsTargetWhileItRan() throws {
    let (path, session) = try makeDemo()
    let export = try runCLI(["export", session, "--db", path])
    XCTAssertEqual(export.status, 0, export.stderr)
    // The second time the import reads the file it fails (a malformed file), or succeeds.
    for (name, secondRead) in [("fails", "not a session export\n"), ("succeeds", export.stdout)] {
      let target = directory.path("\(name).sqlite")
      // A pipe instead of a file: the library's import reads it to check it, then again while
      // it writes the session, and waits at each read until the test writes. (The `import`
      // command reads a pipe once, into a copy, so the library is called here directly.)
      let pipe = directory.path("\(name).ndjson")
      XCTAssertEqual(mkfifo(pipe, 0o600), 0)
      let outcome = Outcome()
      let finished = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        do {
          let file = try SessionExportFile.read(path: pipe)
          _ = try SessionImporter().importSessionIntoNewJournal(file, at: target)
        } catch {
          outcome.error = error
        }
        finished.signal()
      }
      let first = try XCTUnwrap(FileHandle(forWritingAtPath: pipe))
      try first.write(contentsOf: Data(export.stdout.utf8))
      try first.close()
      // Once the import checked the file it creates its journal; wait for it before opening the
      // pipe again, which then waits for the import's second read.
      let deadline = Date().addingTimeInterval(60)
      while try files().allSatisfy({ !$0.contains(".import-") && $0 != "\(name).sqlite" }),
        Date() < deadline
      {
        Thread.sleep(forTimeInterval: 0.005)
      }
      XCTAssertFalse(
        FileManager.default.fileExists(atPath: target),
        "\(name): the import builds its journal under another name")
      let second = try XCTUnwrap(FileHandle(forWritingAtPath: pipe))

      // An app creates the journal at the target and records into it meanwhile.
      let app = try SQLiteJournal(path: target)
      _ = try app.createSession(
        "app", initial: StateEncoding.encode(["screen": "home"]), version: 1)

      try second.write(contentsOf: Data(secondRead.utf8))
      try second.close()
      XCTAssertEqual(finished.wait(timeout: .now() + 90), .success, name)
      let error = try XCTUnwrap(
        outcome.error as? StorageError, "\(name): \(String(describing: outcome.error))")
      let expected = name == "fails" ? "Line 1 of" : "A file appeared at \(target)"
      XCTAssertTrue(error.message.contains(expected), "\(name): \(error.message)")
      XCTAssertEqual(try app.sessions().map(\.id), ["app"], name)
      XCTAssertTrue(FileManager.default.fileExists(atPath: target), name)
    }
    XCTAssertEqual(try files().filter { $0.contains(".import-") }, [], "no temporary file left")
  }
}
