import Foundation
import GRDB
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
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

  /// Records a session of pushes onto a stack of integers, entry `n` recorded at `start` plus
  /// `offsets[n - 1]` seconds, into the file at `path`.
  func recordPushes(
    _ session: SessionID,
    at path: String,
    start: Date,
    offsets: [TimeInterval],
    snapshotInterval: Int = 100
  ) async throws {
    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: snapshotInterval))
    var stack = StackState<Int>()
    _ = try journal.createSession(
      session, initial: StateEncoding.encode(["path": stack]), version: 1, at: start)
    for (index, offset) in offsets.enumerated() {
      stack.append(index)
      _ = try await journal.append(
        session: session, expectedSequence: Int64(index),
        JournalEntryDraft(
          type: "push", version: 1, payload: Data("{}".utf8),
          state: try StateEncoding.encode(["path": stack]),
          recordedAt: start.addingTimeInterval(offset)))
    }
    try journal.close()
  }

  /// Records the README's coordinator flow (session `flow`) and a parent with a child
  /// coordinator (session `parent`) into the file at `path`; returns their heads.
  @discardableResult
  func recordCoordinators(at path: String) async throws -> (flow: Int64, parent: Int64) {
    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 2))
    let flow = try await RecordingStore.open(
      session: "flow", journal: journal, initialState: Coordinator.State()
    ) { Coordinator() }
    for action: Coordinator.Action in [
      .router(.routeAction(0, action: .home(.startTapped))),
      .router(.routeAction(1, action: .numbersList(.numberSelected(42)))),
      .router(.routeAction(2, action: .numberDetail(.showDouble(42)))),
      .router(.routeAction(3, action: .numberDetail(.goBackToRootTapped))),
    ] {
      try await flow.send(action).finish()
    }
    let parent = try await RecordingStore.open(
      session: "parent", journal: journal, initialState: ParentCoordinator.State()
    ) { ParentCoordinator() }
    for action: ParentCoordinator.Action in [
      .router(.routeAction(0, action: .home(.startFlowTapped))),
      .router(.routeAction(1, action: .numbersFlow(.router(.routeAction(
        0, action: .numbersList(.numberSelected(7))))))),
    ] {
      try await parent.send(action).finish()
    }
    return (flow.sequence, parent.sequence)
  }
}
