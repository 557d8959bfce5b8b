import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

/// The `stackjournal-recorder` test tool's own failures and its `--race` mode, run as the built
/// binary (the PostgreSQL process tests start it the same way).
final class RecorderTests: CLITestCase {
  /// What a run of the recorder printed, and how it ended.
  private struct RecorderResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var stderrLines: [Substring] { stderr.split(separator: "\n") }
  }

  /// The built recorder, started with `arguments`, its output going to files.
  private struct RunningRecorder {
    let process = Process()
    let out: URL
    let err: URL
    let handles: [FileHandle]

    init(_ arguments: [String], in directory: TemporaryDirectory) throws {
      out = URL(fileURLWithPath: directory.path("recorder-\(UUID().uuidString).out"))
      err = URL(fileURLWithPath: directory.path("recorder-\(UUID().uuidString).err"))
      FileManager.default.createFile(atPath: out.path, contents: nil)
      FileManager.default.createFile(atPath: err.path, contents: nil)
      handles = [try FileHandle(forWritingTo: out), try FileHandle(forWritingTo: err)]
      process.executableURL = try builtExecutable("stackjournal-recorder")
      process.arguments = arguments
      process.standardOutput = handles[0]
      process.standardError = handles[1]
      process.standardInput = FileHandle.nullDevice
      try process.run()
    }

    /// Waits for the recorder to end (at most 60 s) and returns what it printed.
    func finish() throws -> RecorderResult {
      defer {
        handles.forEach { try? $0.close() }
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
      }
      let deadline = Date().addingTimeInterval(60)
      while process.isRunning {
        if Date() > deadline {
          process.terminate()
          process.waitUntilExit()
          throw CLIRunnerError("stackjournal-recorder \(process.arguments ?? []) ran past 60 s")
        }
        Thread.sleep(forTimeInterval: 0.005)
      }
      process.waitUntilExit()
      return RecorderResult(
        status: process.terminationStatus,
        stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
  }

  private func runRecorder(_ arguments: [String]) throws -> RecorderResult {
    try RunningRecorder(arguments, in: directory).finish()
  }

  /// Exactly one line on standard error, `stackjournal-recorder: …` containing `text`, nothing
  /// on standard output, and the status.
  private func assertOneLine(
    _ result: RecorderResult, status: Int32, contains text: String, line: UInt = #line
  ) {
    XCTAssertEqual(result.status, status, result.stderr, line: line)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr, line: line)
    XCTAssertTrue(result.stderr.hasPrefix("stackjournal-recorder: "), result.stderr, line: line)
    XCTAssertTrue(result.stderr.contains(text), "\(result.stderr) lacks \(text)", line: line)
    XCTAssertEqual(result.stdout, "", line: line)
  }

  func testWrongArgumentsGetTheUsage() throws {
    let db = directory.path("j.sqlite")
    for arguments in [
      [], [db], [db, "s"], [db, "s", "seven"], [db, "s", "1", "extra"], ["--race", db, "s"],
      ["--race", db, "s", "-1"], ["--race"],
    ] {
      assertOneLine(try runRecorder(arguments), status: 2, contains: "usage: ")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: db), "no journal was created")
  }

  func testAPostgresURLSaysWhatThisBuildSupports() throws {
    for arguments in [
      ["postgres://app:secret@127.0.0.1:1/app", "s", "1"],
      ["--race", "postgresql://app:secret@127.0.0.1:1/app", "s", "10"],
    ] {
      let result = try runRecorder(arguments)
      #if PostgreSQL
        // Nothing listens on port 1.
        assertOneLine(result, status: 1, contains: "Cannot connect to PostgreSQL at 127.0.0.1:1")
      #else
        assertOneLine(
          result, status: 2, contains: "no PostgreSQL support; build with `--traits PostgreSQL`")
      #endif
      XCTAssertFalse(result.stderr.contains("secret"), "no password is shown: \(result.stderr)")
    }
  }

  func testARaceOnASessionThatDoesNotExistFails() throws {
    let db = directory.path("j.sqlite")
    let journal = try SQLiteJournal(path: db)
    _ = try journal.createSession(
      "other", initial: EncodedState(json: Data("{}".utf8), stacks: []), version: 1)
    assertOneLine(
      try runRecorder(["--race", db, "missing", "10"]), status: 1,
      contains: "There is no session missing")
    XCTAssertEqual(try journal.sessions().map(\.id), ["other"], "nothing was created")
    XCTAssertEqual(try journal.headSequence(session: "other"), 0)
  }

  /// Two racers on one SQLite session, started together: each sequence is won by exactly one,
  /// and a lost append lost to the other.
  func testTwoRacersOnOneSQLiteSessionEachWinDistinctSequences() async throws {
    let db = directory.path("j.sqlite")
    let journal = try SQLiteJournal(path: db)
    _ = try await journal.createSession(
      "shared", initial: EncodedState(json: Data("{}".utf8), stacks: []), version: 1)
    let racers = try (0..<2).map { _ in
      try RunningRecorder(["--race", db, "shared", "200"], in: directory)
    }
    let results = try racers.map { try $0.finish() }
    func numbers(_ result: RecorderResult, _ prefix: String) -> [Int64] {
      result.stdout.split(separator: "\n").compactMap { line in
        line.hasPrefix(prefix + " ") ? Int64(line.dropFirst(prefix.count + 1)) : nil
      }
    }
    for result in results {
      XCTAssertEqual(result.status, 0, result.stderr)
      XCTAssertEqual(result.stderr, "")
    }
    let won = results.map { Set(numbers($0, "won")) }
    let lost = results.map { numbers($0, "lost") }
    XCTAssertTrue(won[0].isDisjoint(with: won[1]), "no sequence won twice")
    XCTAssertEqual(won[0].union(won[1]), Set(1...200), "every sequence won once")
    XCTAssertTrue(lost[0].allSatisfy(won[1].contains), "racer 1 lost only to racer 2")
    XCTAssertTrue(lost[1].allSatisfy(won[0].contains), "racer 2 lost only to racer 1")
    XCTAssertEqual(try journal.headSequence(session: "shared"), 200)
    var sequences: [Int64] = []
    try await journal.entries(session: "shared") {
      sequences.append($0.sequence)
      return true
    }
    XCTAssertEqual(sequences, Array(1...200), "no gap, no duplicate")
    print("SQLite race: \(won[0].count) + \(won[1].count) won, \(lost.joined().count) lost")
  }
}
