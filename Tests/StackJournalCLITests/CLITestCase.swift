import Foundation
import GRDB
import StackJournalTestSupport
import StackStorage
import XCTest

/// A test that runs the built `stackjournal` binary against journals in a fresh temporary
/// directory, deleted after the test.
class CLITestCase: XCTestCase {
  var directory: TemporaryDirectory!

  override func setUpWithError() throws {
    directory = try TemporaryDirectory(prefix: "StackJournalCLITests")
  }

  override func tearDown() {
    directory.remove()
    directory = nil
  }

  /// Runs `stackjournal demo` into `name` and returns the file's path and the session.
  @discardableResult
  func makeDemo(
    _ name: String = "demo.sqlite",
    snapshotInterval: Int = 3,
    actions: Int = 0
  ) throws -> (path: String, session: String) {
    let path = directory.path(name)
    let result = try runCLI([
      "demo", "--db", path, "--snapshot-interval", String(snapshotInterval), "--actions",
      String(actions), "--json",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let summary = try result.jsonObject()
    return (path, try XCTUnwrap(summary["session"] as? String))
  }

  /// Asserts a failed run: the given status, exactly one line on standard error starting with
  /// `Error:` and containing `text`, and nothing on standard output.
  func assertOneLineError(
    _ result: CLIResult,
    status: Int32 = 2,
    contains text: String,
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr, file: file, line: line)
    XCTAssertTrue(result.stderr.hasPrefix("Error: "), result.stderr, file: file, line: line)
    XCTAssertTrue(
      result.stderr.localizedCaseInsensitiveContains(text),
      "\(result.stderr) does not contain \(text)", file: file, line: line)
    XCTAssertEqual(result.stdout, "", file: file, line: line)
  }

  /// The names of the files in the test's directory.
  func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
  }

  /// Opens a file for a test to change rows behind the journal's back.
  func tamper(_ path: String, _ sql: String, arguments: StatementArguments = []) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
    try queue.close()
  }
}
