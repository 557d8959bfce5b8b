import Foundation
import GRDB
import StackJournalTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Every command against every hostile file: each run ends (under a timeout) with a correct
/// answer or a clear refusal — an exit status the CLI documents, a message on standard error,
/// no control codes in what it prints — and a write command that refuses leaves the file as it
/// was. A command added to the CLI is added to `commands` below and is probed from that day.
final class HostileMatrixTests: CLITestCase {
  /// A command to run against a file; `write` marks commands that change the file.
  struct Command: Sendable {
    var name: String
    var arguments: @Sendable (_ db: String, _ session: String, _ scratch: String) -> [String]
    var write = false
  }

  /// Every command of the CLI, as a user would run it against a journal.
  static let commands: [Command] = [
    Command(name: "sessions") { db, _, _ in ["sessions", "--db", db] },
    Command(name: "sessions --json") { db, _, _ in ["sessions", "--db", db, "--json"] },
    Command(name: "log") { db, s, _ in ["log", "--db", db, s] },
    Command(name: "log --json") { db, s, _ in ["log", "--db", db, s, "--json"] },
    Command(name: "log --since") { db, s, _ in ["log", "--db", db, s, "--since", "2000-01-01"] },
    Command(name: "show") { db, s, _ in ["show", "--db", db, s] },
    Command(name: "show --at") { db, s, _ in ["show", "--db", db, s, "--at", "2", "--json"] },
    Command(name: "show --at-time") { db, s, _ in
      ["show", "--db", db, s, "--at-time", "2100-01-01"]
    },
    Command(name: "diff") { db, s, _ in ["diff", "--db", db, s, "1", "3"] },
    Command(name: "report") { db, s, dir in ["report", "--db", db, s, "-o", dir + "/r.html"] },
    Command(name: "verify") { db, _, _ in ["verify", "--db", db] },
    Command(name: "verify --json") { db, _, _ in ["verify", "--db", db, "--json"] },
    Command(name: "stats") { db, _, _ in ["stats", "--db", db, "--json"] },
    Command(name: "export") { db, s, dir in ["export", "--db", db, s, "-o", dir + "/e.jsonl"] },
    Command(name: "compact --dry-run") { db, s, _ in
      ["compact", "--db", db, s, "--keep-snapshots", "1", "--dry-run"]
    },
    Command(name: "migrate --dry-run") { db, _, _ in ["migrate", "--db", db, "--dry-run"] },
    Command(name: "demo", arguments: { db, _, _ in ["demo", "--db", db, "--actions", "1"] },
      write: true),
    Command(name: "import", arguments: { db, _, dir in
      ["import", "--db", db, dir + "/pristine.jsonl", "--as", "imported"]
    }, write: true),
    Command(name: "compact", arguments: { db, s, _ in
      ["compact", "--db", db, s, "--keep-snapshots", "1"]
    }, write: true),
    Command(name: "prune", arguments: { db, _, _ in ["prune", "--db", db, "--empty"] },
      write: true),
    Command(name: "migrate", arguments: { db, _, _ in ["migrate", "--db", db] }, write: true),
  ]

  /// The exit statuses the CLI documents: success, problems found, an error, a usage error.
  static let documentedStatuses: Set<Int32> = [0, 1, 2, 64]

  /// A journal made by `demo`, its session, and an export of it for `import`.
  private func pristine() throws -> (path: String, session: String) {
    let made = try makeDemo("pristine.sqlite", actions: 12)
    let exported = try runCLI([
      "export", "--db", made.path, made.session, "-o", directory.path("pristine.jsonl"),
    ])
    XCTAssertEqual(exported.status, 0, exported.stderr)
    return made
  }

  /// A copy of the pristine journal changed by `sql` (run with check constraints off, as a
  /// hand edit can be), for one hostile case.
  private func hostileCopy(_ name: String, _ sql: String) throws -> (path: String, session: String) {
    let (path, session) = try pristine()
    let copy = directory.path(name + ".sqlite")
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    try queue.close()
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    let hostile = try DatabaseQueue(path: copy)
    try hostile.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
      try db.execute(sql: sql.replacingOccurrences(of: "$SESSION", with: session))
      try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    try hostile.close()
    return (copy, session)
  }

  /// The bytes a journal's content lives in: the file and its write-ahead log.
  private func contents(_ path: String) -> Data {
    let main = FileManager.default.contents(atPath: path) ?? Data()
    let wal = FileManager.default.contents(atPath: path + "-wal") ?? Data()
    return main + wal
  }

  /// Runs every command against `path`; `mustRefuseWrites` when every write must be refused,
  /// `verifyMustComplain` when `verify` must not call the file clean.
  private func probe(
    _ label: String, path: String, session: String, mustRefuseWrites: Bool,
    verifyMustComplain: Bool, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    for command in Self.commands {
      let scratch = directory.path("out-\(label)-\(command.name.replacingOccurrences(of: " ", with: "_"))")
      try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
      try? FileManager.default.copyItem(
        atPath: directory.path("pristine.jsonl"), toPath: scratch + "/pristine.jsonl")
      let before = contents(path)
      let cell = "\(label) × \(command.name)"
      let result: CLIResult
      do {
        result = try runCLI(command.arguments(path, session, scratch), timeout: 60)
      } catch {
        XCTFail("\(cell): \(error)", file: file, line: line)
        continue
      }
      XCTAssertTrue(
        Self.documentedStatuses.contains(result.status),
        "\(cell): ended with status \(result.status) (a signal?): \(result.stderr.suffix(400))",
        file: file, line: line)
      if result.status != 0 {
        XCTAssertFalse(
          result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            && result.stdout.isEmpty,
          "\(cell): failed without saying why", file: file, line: line)
      }
      for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
        let control = text.unicodeScalars.first {
          ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F
            || (0x80...0x9F).contains($0.value)
        }
        XCTAssertNil(
          control, "\(cell): a control code in \(stream)", file: file, line: line)
      }
      if command.write {
        if mustRefuseWrites {
          XCTAssertNotEqual(result.status, 0, "\(cell): wrote to a hostile file", file: file, line: line)
        }
        if result.status != 0 {
          XCTAssertEqual(
            contents(path), before, "\(cell): refused, yet the file changed", file: file, line: line)
        }
      }
      if verifyMustComplain, command.name.hasPrefix("verify") {
        XCTAssertNotEqual(result.status, 0, "\(cell): called the file clean", file: file, line: line)
      }
    }
  }

  func testAnExtraTrigger() throws {
    let (path, session) = try hostileCopy(
      "trigger",
      "CREATE TRIGGER evil AFTER INSERT ON journal BEGIN DELETE FROM stack_elements; END")
    try probe("trigger", path: path, session: session, mustRefuseWrites: true,
      verifyMustComplain: true)
  }

  func testAViewInPlaceOfATable() throws {
    let (path, session) = try hostileCopy(
      "view",
      """
      ALTER TABLE snapshots RENAME TO snapshots_kept;
      CREATE VIEW snapshots AS SELECT * FROM snapshots_kept
      """)
    try probe("view", path: path, session: session, mustRefuseWrites: true,
      verifyMustComplain: true)
  }

  func testATimeThatIsNotATime() throws {
    let (path, session) = try hostileCopy(
      "time", "UPDATE sessions SET created_at = 'yesterday' WHERE id = '$SESSION'")
    try probe("time", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
  }

  func testASequenceAtInt64Max() throws {
    let (path, session) = try hostileCopy(
      "int64max",
      """
      UPDATE journal SET key = (key >> 32 << 32) + 4294967295
        WHERE key = (SELECT max(key) FROM journal
          WHERE session_number = (SELECT number FROM sessions WHERE id = '$SESSION'));
      UPDATE sessions SET head_sequence = 9223372036854775807 WHERE id = '$SESSION'
      """)
    try probe("int64max", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
  }

  func testANegativeSequence() throws {
    let (path, session) = try hostileCopy(
      "negative",
      // A journal key holds no sequence below 0: entry 1 moved to sequence 0.
      """
      UPDATE journal SET key = key - 1
        WHERE session_number = (SELECT number FROM sessions WHERE id = '$SESSION')
          AND sequence = 1
      """)
    try probe("negative", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
  }

  func testMetadataThatIsNotJSON() throws {
    let (path, session) = try hostileCopy(
      "notjson", "UPDATE sessions SET metadata = '[}' WHERE id = '$SESSION'")
    try probe("notjson", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
  }

  func testABlobWhereJSONBelongs() throws {
    let (path, session) = try hostileCopy(
      "blob", "UPDATE sessions SET metadata = X'00FF7B' WHERE id = '$SESSION'")
    try probe("blob", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
  }

  func testDeepNestingInAnElementsState() throws {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    let (path, session) = try hostileCopy(
      "deep",
      """
      UPDATE stack_elements SET state = '\(deep)' WHERE session = '$SESSION';
      UPDATE sessions SET metadata = '\(deep)' WHERE id = '$SESSION'
      """)
    try probe("deep", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
  }

  func testEscapeSequencesInAnActionType() throws {
    let (path, session) = try hostileCopy(
      "escapes",
      """
      UPDATE journal SET type = 'tap' || char(27) || '[8m' || 'hidden' || char(7)
        WHERE session_number = (SELECT number FROM sessions WHERE id = '$SESSION')
          AND sequence = 2
      """)
    try probe("escapes", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: false)
  }

  /// Files that are not journals, or not files: each command refuses them and creates nothing.
  func testPathsThatAreNotJournals() throws {
    _ = try pristine()
    let garbage = directory.path("garbage.sqlite")
    try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(
      to: URL(fileURLWithPath: garbage))
    let empty = directory.path("empty.sqlite")
    FileManager.default.createFile(atPath: empty, contents: Data())
    let folder = directory.path("folder.sqlite")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let loop = directory.path("loop.sqlite")
    try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
    let fifo = directory.path("fifo.sqlite")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    for (label, path) in [
      ("garbage", garbage), ("folder", folder), ("loop", loop), ("fifo", fifo),
    ] {
      try probe(label, path: path, session: "s", mustRefuseWrites: true, verifyMustComplain: true)
    }
    // An empty file is a new journal to the write commands; the read commands find no sessions.
    try probe("empty", path: empty, session: "s", mustRefuseWrites: false, verifyMustComplain: false)
  }

  /// Output paths that are not plain files: a FIFO with a reader and a character device are
  /// written as streams and stay what they were; a full device, a directory and a symbolic link
  /// loop are refused with a message.
  func testOutputPathsThatAreNotPlainFiles() throws {
    let (path, session) = try pristine()
    let fifo = directory.path("out.fifo")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let loop = directory.path("out-loop")
    try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
    let folder = directory.path("out-folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for command in ["report", "export"] {
      // A reader drains the FIFO, as a pipe to another program would.
      let reader = Process()
      reader.executableURL = URL(fileURLWithPath: "/bin/sh")
      reader.arguments = ["-c", "cat '\(fifo)' | wc -c"]
      let counted = Pipe()
      reader.standardOutput = counted
      try reader.run()
      let streamed = try runCLI([command, "--db", path, session, "-o", fifo], timeout: 60)
      // Should the command not have written, an end of file lets the reader go.
      let release = open(fifo, O_WRONLY | O_NONBLOCK)
      if release >= 0 { close(release) }
      let deadline = Date().addingTimeInterval(30)
      while reader.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
      if reader.isRunning {
        reader.terminate()
        XCTFail("\(command) -o FIFO: the reader never saw the end of the stream")
      }
      reader.waitUntilExit()
      XCTAssertEqual(streamed.status, 0, "\(command) -o FIFO: \(streamed.stderr)")
      let bytes = Int(
        String(decoding: counted.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
          .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
      XCTAssertGreaterThan(bytes, 0, "\(command) -o FIFO wrote nothing through it")
      var info = stat()
      XCTAssertEqual(lstat(fifo, &info), 0)
      XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "\(command) replaced the FIFO")

      let full = try runCLI([command, "--db", path, session, "-o", "/dev/full"], timeout: 60)
      XCTAssertEqual(full.status, 2, "\(command) -o /dev/full: \(full.stderr)")
      XCTAssertFalse(full.stderr.isEmpty, "\(command) -o /dev/full said nothing")
      XCTAssertEqual(lstat("/dev/full", &info), 0)
      XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "\(command) replaced /dev/full")

      for refused in [loop, folder] {
        let result = try runCLI([command, "--db", path, session, "-o", refused], timeout: 60)
        XCTAssertEqual(result.status, 2, "\(command) -o \(refused): \(result.stderr)")
        XCTAssertTrue(result.stderr.hasPrefix("Error: "), result.stderr)
      }
      var folderInfo = stat()
      XCTAssertEqual(lstat(folder, &folderInfo), 0)
      XCTAssertEqual(folderInfo.st_mode & S_IFMT, S_IFDIR)
    }
  }

  // Forged presentations (schema 5): rows, deltas and snapshots that break what a presented
  // destination is — a record holding `#0` alone with next ID 1, changed only as a presentation.

  func testAStackRowMarkedAsAPresentation() throws {
    let (path, session) = try hostileCopy(
      "stack-as-presentation",
      "UPDATE stacks SET presentation = 1 WHERE session = '$SESSION' AND path = 'path'")
    try probe("stack-as-presentation", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
  }

  func testAPresentationRowHoldingTwoElements() throws {
    let (path, session) = try hostileCopy(
      "presentation-rows",
      """
      INSERT INTO stacks (session, path, next_id, presentation)
        VALUES ('$SESSION', 'destination', 2, 1);
      INSERT INTO stack_elements (session, path, id, position, case_name, state)
        VALUES ('$SESSION', 'destination', 0, 0, 'sheet', '{"sheet":{}}'),
          ('$SESSION', 'destination', 1, 1, 'alert', '{"alert":{"title":"x"}}')
      """)
    try probe("presentation-rows", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
  }

  func testADeltaPresentingTwoElements() throws {
    let (path, session) = try hostileCopy(
      "presentation-delta",
      #"""
      UPDATE journal SET delta = json_insert(delta, '$.changes[#]', json('{"changed":[],
          "ids":[0,1],"nextID":2,"path":"destination","popped":[],"presentation":true,
          "pushed":[{"caseName":"sheet","id":0,"state":"{}"},{"caseName":null,"id":1,
          "state":"{\"title\":\"\u001b[8mhidden\"}"}],"removed":false}'))
        WHERE session_number = (SELECT number FROM sessions WHERE id = '$SESSION')
          AND sequence = 2
      """#)
    try probe("presentation-delta", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
    let shown = try runCLI(["show", "--db", path, session, "--at", "2"])
    XCTAssertEqual(shown.status, 2, shown.stderr)
    XCTAssertTrue(shown.stderr.contains("presentation `destination`"), shown.stderr)
  }

  func testASnapshotHoldingAForgedPresentation() throws {
    let (path, session) = try hostileCopy(
      "presentation-snapshot",
      """
      UPDATE snapshots SET stacks = json_insert(stacks, '$[#]', json('{"elements":[
          {"caseName":"alert","id":3,"state":"{}"}],"nextID":7,"path":"zz",
          "presentation":true}'))
        WHERE session = '$SESSION' AND sequence = 0
      """)
    try probe("presentation-snapshot", path: path, session: session, mustRefuseWrites: false,
      verifyMustComplain: true)
    let shown = try runCLI(["show", "--db", path, session, "--at", "0"])
    XCTAssertEqual(shown.status, 2, shown.stderr)
    XCTAssertTrue(shown.stderr.contains("the presentation `zz` holds"), shown.stderr)
  }
}
