import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

/// A writer killed in the middle of its work leaves a write-ahead log and its index behind; the
/// next command that removes history works on the file as it is, without another writer opening
/// it first.
final class KilledWriterTests: CLITestCase {
  /// Starts the built recorder on `path`, waits for it to acknowledge `count` actions, then
  /// kills it with SIGKILL.
  private func recordThenKill(_ path: String, session: String, count: Int) throws {
    let output = directory.path("recorder-\(session).out")
    FileManager.default.createFile(atPath: output, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    defer { try? handle.close() }
    let process = Process()
    process.executableURL = try builtExecutable("stackjournal-recorder")
    process.arguments = [path, session, "7"]
    process.standardOutput = handle
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    var acknowledged = 0
    while acknowledged < count, process.isRunning, Date() < deadline {
      Thread.sleep(forTimeInterval: 0.02)
      let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self)
      acknowledged = text.split(separator: "\n").count
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    XCTAssertGreaterThanOrEqual(acknowledged, count, "the recorder acknowledged too few actions")
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: path + "-shm"), "the killed writer left its -shm")
  }

  func testCompactWorksRightAfterAWriterWasKilled() throws {
    let path = directory.path("killed.sqlite")
    try recordThenKill(path, session: "rec", count: 40)
    let compact = try runCLI(
      ["compact", "rec", "--keep-snapshots", "1", "--json", "--db", path], timeout: 60)
    XCTAssertEqual(compact.status, 0, compact.stderr)
    XCTAssertEqual(try compact.jsonObject()["applied"] as? Bool, true, compact.stdout)
    let verify = try runCLI(["verify", "--db", path], timeout: 60)
    XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
  }

  func testPruneWorksRightAfterAWriterWasKilled() throws {
    let path = directory.path("killed.sqlite")
    try recordThenKill(path, session: "rec", count: 10)
    let prune = try runCLI(["prune", "--session", "rec", "--json", "--db", path], timeout: 60)
    XCTAssertEqual(prune.status, 0, prune.stderr)
    let sessions = try runCLI(["sessions", "--json", "--db", path], timeout: 60)
    XCTAssertEqual(sessions.status, 0, sessions.stderr)
    XCTAssertFalse(sessions.stdout.contains("\"rec\""), sessions.stdout)
  }
}
