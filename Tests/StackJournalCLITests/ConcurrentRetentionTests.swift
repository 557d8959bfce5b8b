import Foundation
import GRDB
import StackJournalTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads of several steps beside a `compact` or a `prune` that another process commits between
/// two of them (issue 39, defects 3 and 6): each read sees one state of the journal, or says
/// that the journal changed under it; never a backup that cannot be restored, nor entries
/// skipped in silence.
///
/// A command that prints a page of 512 entries at a time is held between two pages by not
/// reading its output: its writes block once the pipe is full, so the other process commits
/// exactly there, without any timing.
final class ConcurrentRetentionTests: CLITestCase {
  /// What a command held between its pages printed, and how it ended.
  private struct HeldRun {
    var status: Int32
    var stdout: String
    var stderr: String

    var lines: [Substring] { stdout.split(separator: "\n") }
  }

  /// Runs the binary with `arguments`; once its first line is out, with the rest of its output
  /// not read, so that it blocks before reading another page, runs `meanwhile`, then reads the
  /// rest and waits for the end.
  private func runHeld(_ arguments: [String], meanwhile: () throws -> Void) throws -> HeldRun {
    let process = Process()
    process.executableURL = try stackjournalExecutable()
    process.arguments = arguments
    let output = Pipe()
    let errors = directory.path("held-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errors, contents: nil)
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let descriptor = output.fileHandleForReading.fileDescriptor
    var printed = Data()
    var byte: UInt8 = 0
    // One byte at a time, so that nothing after the first line leaves the pipe.
    while printed.last != UInt8(ascii: "\n"), read(descriptor, &byte, 1) == 1 {
      printed.append(byte)
    }
    try meanwhile()
    printed.append(output.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    return HeldRun(
      status: process.terminationStatus, stdout: String(decoding: printed, as: UTF8.self),
      stderr: String(decoding: try fileBytes(errors), as: UTF8.self))
  }

  /// A session of 1,680 entries with a snapshot every 100: more than three pages, and a page
  /// printed fills a pipe several times.
  private func makeLongSession() throws -> (path: String, session: String) {
    try makeDemo("long.sqlite", snapshotInterval: 100, actions: 1500)
  }

  private func run(_ arguments: [String]) throws {
    let result = try runCLI(arguments)
    XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
  }

  // MARK: export

  /// Defect 3: a `compact` committing between two pages of an export left a file whose header
  /// announced rows it lacked, written with exit status 0; `import` refused it.
  func testAnExportBesideACompactionSaysTheSessionChanged() throws {
    let (path, session) = try makeLongSession()
    let held = try runHeld(["export", session, "--db", path]) {
      try run(["compact", session, "--keep-snapshots", "1", "--db", path])
    }
    XCTAssertEqual(held.status, 2, held.stderr)
    let expected = "Session \(session) changed while it was exported: entries 513…1600 were removed"
    XCTAssertTrue(held.stderr.contains(expected), held.stderr)
  }

  /// A sibling of defect 3: a `prune` of the session between two pages of its export.
  func testAnExportBesideAPruneSaysTheSessionChanged() throws {
    let (path, session) = try makeLongSession()
    let held = try runHeld(["export", session, "--db", path]) {
      try run(["prune", "--session", session, "--db", path])
    }
    XCTAssertEqual(held.status, 2, held.stderr)
    XCTAssertTrue(
      held.stderr.contains("Session \(session) changed while it was exported"), held.stderr)
  }

  /// What an export that ran to its end wrote is a file `import` takes, compaction or not.
  func testAnExportBesideACompactionOfAnotherSessionIsComplete() throws {
    let (path, session) = try makeLongSession()
    XCTAssertEqual(
      try runCLI(["demo", "--db", path, "--session", "other", "--actions", "300", "--json"])
        .status, 0)
    let held = try runHeld(["export", session, "--db", path]) {
      try run(["compact", "other", "--keep-snapshots", "1", "--db", path])
    }
    XCTAssertEqual(held.status, 0, held.stderr)
    let file = directory.path("export.ndjson")
    try Data(held.stdout.utf8).write(to: URL(fileURLWithPath: file))
    let imported = try runCLI(["import", file, "--db", directory.path("copy.sqlite")])
    XCTAssertEqual(imported.status, 0, imported.stderr)
  }

  // MARK: log

  /// Defect 3, `log`: a `compact` committing between two pages made it skip the entries it
  /// removed, in silence, with exit status 0.
  func testLogBesideACompactionSaysWhichEntriesWereRemoved() throws {
    let (path, session) = try makeLongSession()
    let held = try runHeld(["log", session, "--ndjson", "--db", path]) {
      try run(["compact", session, "--keep-snapshots", "1", "--db", path])
    }
    XCTAssertEqual(held.status, 2, held.stderr)
    XCTAssertTrue(
      held.stderr.contains("entries 513…1600 were removed before they could be read"),
      held.stderr)
    let sequences = try held.lines.map { line in
      try XCTUnwrap(
        (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["sequence"]
          as? Int)
    }
    XCTAssertEqual(sequences, Array(1...512), "what was printed has no gap")
  }

  /// A sibling of defect 3, `log`: a `prune` of the session between two pages ended the log
  /// in silence, with exit status 0.
  func testLogBesideAPruneSaysTheSessionWasRemoved() throws {
    let (path, session) = try makeLongSession()
    let held = try runHeld(["log", session, "--ndjson", "--db", path]) {
      try run(["prune", "--session", session, "--db", path])
    }
    XCTAssertEqual(held.status, 2, held.stderr)
    XCTAssertTrue(
      held.stderr.contains("Session \(session) was removed from"), held.stderr)
  }

  // MARK: verify

  /// Defect 6: a whole-file `verify` listed the sessions, then read each in a transaction of
  /// its own, and failed ("There is no session …", exit 2) on a sound journal when another
  /// process pruned one it had listed. It reads them all in one transaction now.
  ///
  /// No output holds `verify` between its steps, so sessions are imported and pruned while it
  /// runs again and again; before the fix, about one run in three failed.
  func testVerifyOfTheWholeFileBesidePrunesSeesOneState() throws {
    let (path, session) = try makeDemo("many.sqlite", snapshotInterval: 20, actions: 200)
    let export = directory.path("session.ndjson")
    try run(["export", session, "--db", path, "-o", export])
    for copy in 1...6 { try run(["import", export, "--as", "copy-\(copy)", "--db", path]) }
    let runs = 12
    var failures: [String] = []
    let stop = StopFlag()
    let pruner = Thread {
      var round = 0
      while !stop.isSet {
        round += 1
        _ = try? runCLI(["import", export, "--as", "victim-\(round)", "--db", path])
        _ = try? runCLI(["prune", "--session", "victim-\(round)", "--db", path])
      }
      stop.finished()
    }
    pruner.start()
    for _ in 0..<runs {
      let result = try runCLI(["verify", "--db", path])
      if result.status != 0 { failures.append(result.stderr + result.stdout.suffix(200)) }
    }
    stop.set()
    stop.waitUntilFinished()
    XCTAssertEqual(failures, [], "\(failures.count) of \(runs) runs of verify failed")
  }

  /// A sibling of defect 6: `sessions` lists the sessions, then reads their sizes; a session
  /// pruned between the two reads was listed with a size of 0 bytes, which no session has (each
  /// keeps at least its first snapshot). It is left out now.
  ///
  /// The window is short: before the fix, about one run in a hundred met it, so the test runs
  /// `sessions` 300 times beside two processes that import and prune sessions. A connection
  /// held open keeps every reader in the log's locks, so that each of its reads sees one state.
  func testSessionsBesidePrunesListsNoSessionWithoutRows() throws {
    let (path, session) = try makeDemo("sizes.sqlite", actions: 30)
    let export = directory.path("session.ndjson")
    try run(["export", session, "--db", path, "-o", export])
    let holder = try DatabaseQueue(path: path)
    defer { try? holder.close() }
    try holder.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") }
    let stop = StopFlag()
    let pruners = (0..<2).map { pruner in
      let done = StopFlag()
      Thread {
        var round = 0
        while !stop.isSet {
          round += 1
          let id = "victim-\(pruner)-\(round)"
          _ = try? runCLI(["import", export, "--as", id, "--db", path])
          _ = try? runCLI(["prune", "--session", id, "--db", path])
        }
        done.finished()
      }.start()
      return done
    }
    var failures: [String] = []
    for _ in 0..<300 {
      let result = try runCLI(["sessions", "--json", "--db", path])
      guard result.status == 0 else {
        failures.append(result.stderr)
        continue
      }
      let listed = try XCTUnwrap(try result.jsonObject()["sessions"] as? [[String: Any]])
      for item in listed where (item["bytes"] as? Int) == 0 {
        failures.append("\(item["id"] ?? "?") listed with 0 bytes")
      }
    }
    stop.set()
    for pruner in pruners { pruner.waitUntilFinished() }
    XCTAssertEqual(failures, [])
  }
}

/// A flag one thread sets to stop another, which says when it has stopped.
private final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  private let stopped = DispatchSemaphore(value: 0)

  var isSet: Bool { lock.withLock { value } }

  func set() { lock.withLock { value = true } }

  func finished() { stopped.signal() }

  func waitUntilFinished() { stopped.wait() }
}
