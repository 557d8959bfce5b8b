import Foundation
import GRDB
import StackJournalDemo
import StackJournalTestSupport
import StackRestoration
import StackStorage
import XCTest

/// Regression tests of the defects a probe from outside found: each runs the built binaries.
final class ReliabilityTests: CLITestCase {
  private var cli: String { (try? stackjournalExecutable().path) ?? "stackjournal" }

  /// The names in the test's directory that start with `prefix`.
  private func files(startingWith prefix: String) throws -> [String] {
    try files().filter { $0.hasPrefix(prefix) }
  }

  /// Runs the binary as the unprivileged user `nobody` when the tests run as root (root ignores
  /// file permissions), or as the current user otherwise.
  private func runUnprivileged(_ arguments: [String]) throws -> CLIResult {
    guard geteuid() == 0 else { return try runCLI(arguments) }
    return try runCLIThroughShell(
      arguments, wrapper: "setpriv --reuid=65534 --regid=65534 --clear-groups")
  }

  private func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  /// Changes rows with foreign keys off, so a test can rename a session everywhere.
  private func tamperWithoutForeignKeys(
    _ path: String, _ sql: String, _ arguments: StatementArguments
  )
    throws
  {
    var configuration = Configuration()
    configuration.foreignKeysEnabled = false
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
    try queue.close()
  }

  // MARK: 1. Symbolic links

  func testAJournalReachedThroughASymbolicLinkOpens() throws {
    let (path, session) = try makeDemo()
    let link = directory.path("link.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    for command in [["sessions"], ["verify"], ["log", session], ["show", session, "--at", "3"]] {
      let result = try runCLI(command + ["--db", link])
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
    }
    let demo = try runCLI(["demo", "--db", link, "--json"])
    XCTAssertEqual(demo.status, 0, demo.stderr)
    XCTAssertEqual(try runCLI(["verify", "--db", path]).status, 0)
    let dangling = directory.path("dangling.sqlite")
    try FileManager.default.createSymbolicLink(
      atPath: dangling, withDestinationPath: directory.path("missing.sqlite"))
    assertOneLineError(
      try runCLI(["demo", "--db", dangling]), contains: "symbolic link to a file that does not")
  }

  // MARK: 2. Errors writing standard output

  func testAFailedWriteToStandardOutputFailsTheCommand() throws {
    let (path, session) = try makeDemo()
    let commands: [[String]] = [
      ["export", session], ["log", session, "--json"], ["log", session, "--ndjson"],
      ["log", session], ["show", session, "--json"], ["verify"], ["stats", "--json"],
      ["diff", session, "0", "10"], ["sessions"],
    ]
    for command in commands {
      let result = try runCLIThroughShell(command + ["--db", path], redirection: "> /dev/full")
      XCTAssertEqual(result.status, 2, "\(command) exited \(result.status): \(result.stderr)")
      XCTAssertTrue(
        result.stderr.contains("cannot write to standard output: No space left on device"),
        "\(command): \(result.stderr)")
    }
  }

  func testAnExportFileThatCannotBeWrittenIsRemovedWithAPlainMessage() throws {
    let (path, session) = try makeDemo(actions: 60)
    let output = directory.path("out.ndjson")
    // A file size limit of 2 KiB; ignoring SIGXFSZ turns the write past it into EFBIG.
    let result = try runCLIThroughShell(
      ["export", session, "--db", path, "-o", output], setup: "trap '' XFSZ; ulimit -f 4")
    assertOneLineError(result, contains: "Cannot write the export to \(output): File too large")
    XCTAssertTrue(result.stderr.contains("The partial file was removed"), result.stderr)
    XCTAssertFalse(result.stderr.contains("NSCocoaErrorDomain"), result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: output))
  }

  // MARK: 3. Atomic creation

  func testARecorderKilledWhileCreatingAJournalNeverLeavesABrokenFile() throws {
    let recorder = try builtExecutable("stackjournal-recorder")
    var generator = SeededGenerator(seed: 3)
    var sawLeftover = 0
    for attempt in 0..<30 {
      let path = directory.path("new-\(attempt).sqlite")
      let process = Process()
      process.executableURL = recorder
      process.arguments = [path, "s", String(attempt)]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: Double(generator.next() % 40) / 1000)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if try !self.files(startingWith: ".new-\(attempt).sqlite.creating-").isEmpty {
        sawLeftover += 1
      }
      if FileManager.default.fileExists(atPath: path) {
        XCTAssertGreaterThan(try fileBytes(path).count, 0, "attempt \(attempt)")
        let listed = try runCLI(["sessions", "--db", path])
        XCTAssertEqual(listed.status, 0, "attempt \(attempt): \(listed.stderr)")
      }
      // The app restarts: opening for writing works and removes the dead creation's files.
      let journal = try SQLiteJournal(path: path)
      XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion)
      XCTAssertEqual(try files(startingWith: ".new-\(attempt).sqlite."), [], "attempt \(attempt)")
    }
    print("killed 30 creations; \(sawLeftover) left temporary files that the next open removed")
  }

  func testLeftoversOfOtherProcessesAndOtherFilesAreKept() throws {
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    let dead = finished.processIdentifier
    let live = getpid()
    let uuid = UUID().uuidString
    let names = [
      ".j.sqlite.creating-\(dead)-\(uuid)", ".j.sqlite.creating-\(dead)-\(uuid)-wal",
      ".j.sqlite.import-\(dead)-\(uuid)", "..j.sqlite.import-\(dead)-\(uuid).creating-1-\(uuid)",
      ".j.sqlite.creating-\(live)-\(uuid)", ".other.sqlite.creating-\(dead)-\(uuid)",
      ".j.sqlite.creating-notapid", ".j.sqlite.import-\(dead)-not-a-uuid",
    ]
    for name in names { try Data("x".utf8).write(to: directory.url.appendingPathComponent(name)) }
    let result = try runCLI(["demo", "--db", directory.path("j.sqlite")])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      try files().filter { $0.hasPrefix(".") },
      [
        ".j.sqlite.creating-\(live)-\(uuid)", ".j.sqlite.creating-notapid",
        ".j.sqlite.import-\(dead)-not-a-uuid", ".other.sqlite.creating-\(dead)-\(uuid)",
      ].sorted())
  }

  // MARK: 4. Permissions

  func testEveryFileCreatedIsReadableByItsOwnerOnly() throws {
    let path = directory.path("j.sqlite")
    let demo = try runCLIThroughShell(["demo", "--db", path], setup: "umask 022")
    XCTAssertEqual(demo.status, 0, demo.stderr)
    XCTAssertEqual(try mode(path), 0o600)
    let export = directory.path("e.ndjson")
    let exported = try runCLIThroughShell(
      ["export", "demo-1", "--db", path, "-o", export], setup: "umask 022")
    XCTAssertEqual(exported.status, 0, exported.stderr)
    XCTAssertEqual(try mode(export), 0o600)
    let imported = directory.path("i.sqlite")
    let result = try runCLIThroughShell(["import", export, "--db", imported], setup: "umask 022")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try mode(imported), 0o600)
    let previous = umask(0o022)
    defer { umask(previous) }
    let library = directory.path("library.sqlite")
    let journal = try SQLiteJournal(path: library)
    _ = try journal.createSession(
      "s", initial: EncodedState(json: Data("{}".utf8), stacks: []), version: 1)
    for file in [library, library + "-wal", library + "-shm"] {
      XCTAssertEqual(try mode(file), 0o600, file)
    }
  }

  // MARK: 5. Export of a damaged session

  func testExportRefusesASessionItsImportWouldRefuse() throws {
    let damages: [(String, String)] = [
      ("payload", "UPDATE journal SET payload = 'not json' WHERE sequence = 4"),
      ("delta", "UPDATE journal SET delta = '{' WHERE sequence = 4"),
      ("gap", "DELETE FROM journal WHERE sequence = 5"),
      // Appends leave `head_sequence` alone (schema 2); a head row past the last entry is damage.
      ("head", "UPDATE sessions SET head_sequence = 13"),
    ]
    for (name, sql) in damages {
      let (path, session) = try makeDemo("\(name).sqlite")
      try tamper(path, sql)
      let result = try runCLI(["export", session, "--db", path])
      assertOneLineError(result, contains: "does not verify")
      let output = directory.path("\(name).ndjson")
      XCTAssertEqual(try runCLI(["export", session, "--db", path, "-o", output]).status, 2, name)
      XCTAssertFalse(FileManager.default.fileExists(atPath: output), name)
    }
  }

  // MARK: 6. Replay across a gap

  func testReplayRefusesToCrossAGap() throws {
    let (path, session) = try makeDemo(snapshotInterval: 100)
    try tamper(path, "DELETE FROM journal WHERE sequence = 5")
    for command in [
      ["demo-app", "replay", session, "--to", "8"], ["demo-app", "replay", session],
    ] {
      assertOneLineError(try runCLI(command + ["--db", path]), contains: "gap in its journal")
    }
    let verify = try runCLI(["demo-app", "verify", "--replay", "--db", path])
    XCTAssertEqual(verify.status, 1, verify.stderr)
    XCTAssertTrue(verify.stdout.contains("replay \(session): FAILED"), verify.stdout)
    let (cut, cutSession) = try makeDemo("cut.sqlite", snapshotInterval: 100)
    try tamper(
      cut, "DELETE FROM journal WHERE sequence > 8; UPDATE sessions SET head_sequence = 10")
    assertOneLineError(
      try runCLI(["demo-app", "replay", cutSession, "--db", cut]),
      contains: "no journal entries after sequence 8")
  }

  // MARK: 7. Session identifiers

  func testSessionIdentifiersThatAreNotPrintableAreRefusedAndOldOnesEscaped() throws {
    let refused = [
      "", "evil\u{1B}]0;title\u{07}", "two\nlines", String(repeating: "x", count: 201),
      " padded", "bidi\u{202E}",
    ]
    for id in refused {
      let path = directory.path("new.sqlite")
      let result = try runCLI(["demo", "--db", path, "--session", id])
      XCTAssertEqual(result.status, 2, "\(id.debugDescription): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("cannot be used"), result.stderr)
      XCTAssertFalse(result.stderr.contains("\u{1B}"), result.stderr)
      XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
      XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
    let accepted = try runCLI(
      ["demo", "--db", directory.path("ok.sqlite"), "--session", "user 42 · ünïcode"])
    XCTAssertEqual(accepted.status, 0, accepted.stderr)

    // A file written before the rule holds an identifier with escapes and a newline.
    let (path, session) = try makeDemo()
    let hostile = "x\u{1B}[2J\u{1B}]0;owned\u{07}\ny"
    for table in ["sessions"] {
      try tamperWithoutForeignKeys(
        path, "UPDATE \(table) SET id = ? WHERE id = ?", [hostile, session])
    }
    // The journal names a session by its number (schema 4), which the identifier does not change.
    for table in ["snapshots", "stacks", "stack_elements"] {
      try tamperWithoutForeignKeys(
        path, "UPDATE \(table) SET session = ? WHERE session = ?", [hostile, session])
    }
    let listing = try runCLI(["sessions", "--db", path])
    XCTAssertEqual(listing.status, 0, listing.stderr)
    XCTAssertFalse(listing.stdout.contains("\u{1B}"), listing.stdout)
    XCTAssertTrue(listing.stdout.contains(#"x\u{1B}[2J\u{1B}]0;owned\u{7}\u{A}y"#), listing.stdout)
    XCTAssertEqual(listing.stdout.split(separator: "\n").count, 2, listing.stdout)
    let json = try runCLI(["sessions", "--db", path, "--json"])
    let sessions = try XCTUnwrap(try json.jsonObject()["sessions"] as? [[String: Any]])
    XCTAssertEqual(sessions.first?["id"] as? String, hostile)
    for command in [["log", hostile], ["verify"], ["show", hostile], ["stats"]] {
      let result = try runCLI(command + ["--db", path])
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
      XCTAssertFalse(result.stdout.contains("\u{1B}"), "\(command): \(result.stdout)")
    }
    let missing = try runCLI(["log", "no\u{1B}[31mpe", "--db", path])
    assertOneLineError(missing, contains: #"no\u{1B}[31mpe"#)
    let export = directory.path("hostile.ndjson")
    XCTAssertEqual(try runCLI(["export", hostile, "--db", path, "-o", export]).status, 0)
    assertOneLineError(
      try runCLI(["import", export, "--db", directory.path("copy.sqlite")]),
      contains: "cannot be used")
    let renamed = try runCLI([
      "import", export, "--db", directory.path("copy.sqlite"), "--as", "fine",
    ])
    XCTAssertEqual(renamed.status, 0, renamed.stderr)
  }

  // MARK: 8. Refused write commands leave the file as it was

  func testRefusedWriteCommandsLeaveTheFileByteForByte() throws {
    let (path, session) = try makeDemo(actions: 200)
    var before = try fileBytes(path)
    assertOneLineError(
      try runCLI(["demo", "--db", path, "--session", session]), contains: "exists in")
    XCTAssertEqual(try fileBytes(path), before)
    XCTAssertEqual(try files(), ["demo.sqlite"])

    // A damaged page in the middle of the file.
    var bytes = [UInt8](before)
    for offset in (4096 * 6)..<(4096 * 6 + 200) { bytes[offset] = 0x5A }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    before = try fileBytes(path)
    let damaged = try runCLI(["demo", "--db", path])
    XCTAssertEqual(damaged.status, 2, damaged.stdout)
    XCTAssertTrue(damaged.stderr.contains("damaged"), damaged.stderr)
    XCTAssertEqual(try fileBytes(path), before)
    XCTAssertEqual(try files(), ["demo.sqlite"])

    // Our application_id on a file with someone else's table and no schema version.
    let foreign = directory.path("foreign.sqlite")
    let queue = try DatabaseQueue(path: foreign)
    try queue.write { db in
      try db.execute(sql: "PRAGMA application_id = \(0x534A_524E)")
      try db.execute(sql: "CREATE TABLE notes (text TEXT)")
    }
    try queue.close()
    let foreignBytes = try fileBytes(foreign)
    for command in [["demo"], ["migrate"], ["sessions"]] {
      assertOneLineError(
        try runCLI(command + ["--db", foreign]), contains: "no schema version")
      XCTAssertEqual(try fileBytes(foreign), foreignBytes, "\(command)")
    }
  }

  func testWriteCommandsOnAFileTheyMayNotWriteCreateNothing() throws {
    let (path, session) = try makeDemo(actions: 20)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    if geteuid() != 0 {
      try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    }
    let before = try fileBytes(path)
    for command in [["demo"], ["compact", session, "--keep-snapshots", "1"]] {
      let result = try runUnprivileged(command + ["--db", path])
      XCTAssertEqual(result.status, 2, "\(command): \(result.stdout) \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("not writable"), "\(command): \(result.stderr)")
      XCTAssertEqual(try fileBytes(path), before, "\(command)")
      XCTAssertEqual(try files(), ["demo.sqlite"], "\(command)")
    }
    // Reading needs no write access at all.
    let listing = try runUnprivileged(["sessions", "--db", path])
    XCTAssertEqual(listing.status, 0, listing.stderr)
  }

  // MARK: 9. Killed imports

  func testTheNextImportRemovesWhatAKilledImportLeft() throws {
    let (path, session) = try makeDemo(snapshotInterval: 5, actions: 3000)
    let export = directory.path("big.ndjson")
    XCTAssertEqual(try runCLI(["export", session, "--db", path, "-o", export]).status, 0)
    let target = directory.path("target.sqlite")
    var leftovers = 0
    for delay in [0.6, 1.0, 1.4, 1.8, 2.4, 3.0, 4.0] {
      let process = Process()
      process.executableURL = try stackjournalExecutable()
      process.arguments = ["import", export, "--db", target]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if FileManager.default.fileExists(atPath: target) { break }
      leftovers +=
        try files(startingWith: ".target.sqlite.import-").count
        + files(startingWith: "..target.sqlite.import-").count
      print("import killed after \(delay) s: \(try files())")
    }
    XCTAssertGreaterThan(leftovers, 0, "no kill landed during an import")
    try? FileManager.default.removeItem(atPath: target)
    let again = try runCLI(["import", export, "--db", target])
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(try files().filter { $0.hasPrefix(".") }, [])
  }

  // MARK: 10. Inspection beside a dead writer

  func testInspectionBesideADeadWriterChangesAndCreatesNoFile() throws {
    let path = directory.path("crashed.sqlite")
    let recorder = try builtExecutable("stackjournal-recorder")
    let process = Process()
    process.executableURL = recorder
    process.arguments = [path, "s", "1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    var acknowledged = Data()
    while String(decoding: acknowledged, as: UTF8.self).split(separator: "\n").count < 30 {
      acknowledged.append(pipe.fileHandleForReading.availableData)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let last = try XCTUnwrap(
      String(decoding: acknowledged, as: UTF8.self).split(separator: "\n").dropLast().last?
        .split(separator: " ").last.flatMap { Int64($0) })
    XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"))
    XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-shm"))
    func snapshot() throws -> [Data] {
      try [path, path + "-wal", path + "-shm"].map(fileBytes)
    }
    let before = try snapshot()
    let commands = [["sessions", "--json"], ["verify"], ["log", "s", "--ndjson"], ["show", "s"]]
    for command in commands {
      let result = try runCLI(command + ["--db", path])
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
      XCTAssertEqual(try snapshot(), before, "\(command) changed a file")
    }
    let head = try XCTUnwrap(
      (try runCLI(["sessions", "--json", "--db", path]).jsonObject()["sessions"]
        as? [[String: Any]])?.first?["headSequence"] as? Int)
    XCTAssertGreaterThanOrEqual(Int64(head), last)

    // The same log without its index: still read, and no -shm appears, even by a user who may
    // only read the files.
    try FileManager.default.removeItem(atPath: path + "-shm")
    for file in [path, path + "-wal"] {
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
    }
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
    let withoutIndex = try [path, path + "-wal"].map(fileBytes)
    for command in commands {
      let result = try runUnprivileged(command + ["--db", path])
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
      XCTAssertEqual(try [path, path + "-wal"].map(fileBytes), withoutIndex)
      XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-shm"), "\(command)")
    }
    // A private copy a killed reader left is removed by the next one.
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    let stale = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stackjournal-read-\(finished.processIdentifier)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
    let listed = try runCLI(["sessions", "--json", "--db", path]).jsonObject()
    XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
    XCTAssertEqual(
      (listed["sessions"] as? [[String: Any]])?.first?["headSequence"] as? Int, head)
  }

  // MARK: 11. What verify checks

  func testVerifyFindsStatesThatDisagreeTypesThatLieAndEditedMigrationRecords() throws {
    let cases: [(String, String, String)] = [
      (
        "state", "UPDATE snapshots SET state = replace(state, '1729', '1730') WHERE sequence = 3",
        "snapshotStateMismatch"
      ),
      ("type", "UPDATE journal SET type = 'pushCounterTapped' WHERE sequence = 5", "typeMismatch"),
      ("name", "UPDATE schema_migrations SET name = '0001_renamed.sql'", "name FAILED"),
      (
        "time", "UPDATE schema_migrations SET applied_at = 'yesterday'", "`yesterday` is not a time"
      ),
    ]
    for (name, sql, finding) in cases {
      let (path, _) = try makeDemo("\(name).sqlite", snapshotInterval: 3)
      try tamper(path, sql)
      let result = try runCLI(["verify", "--db", path])
      XCTAssertEqual(result.status, 1, "\(name): \(result.stdout)")
      XCTAssertTrue(result.stdout.contains(finding), "\(name): \(result.stdout)")
      let replay = try runCLI(["demo-app", "verify", "--replay", "--db", path])
      XCTAssertEqual(replay.status, 1, "\(name): \(replay.stdout)")
      XCTAssertTrue(replay.stdout.contains(finding), "\(name): \(replay.stdout)")
    }
  }

  // MARK: 12. Messages

  func testMessagesNameCommandsThatExistAndSayWhatIsWrong() throws {
    let (path, session) = try makeDemo(snapshotInterval: 100)
    try tamper(path, "UPDATE sessions SET head_sequence = 11")
    assertOneLineError(
      try runCLI(["show", session, "--at", "11", "--db", path]),
      contains: "records head 11, but its journal's entries end at 10")
    try tamper(path, "UPDATE sessions SET head_sequence = 10")
    try tamper(path, "UPDATE snapshots SET stacks = '[{' WHERE sequence = 0")
    let unreadable = try runCLI(["show", session, "--at", "2", "--db", path])
    XCTAssertEqual(unreadable.status, 2)
    XCTAssertFalse(unreadable.stderr.contains("stackjournal check"), unreadable.stderr)

    let blank = directory.path("blank.sqlite")
    let queue = try DatabaseQueue(path: blank)
    try queue.write { db in try db.execute(sql: "CREATE TABLE t (x); DROP TABLE t") }
    try queue.close()
    assertOneLineError(
      try runCLI(["sessions", "--db", blank]), contains: "`stackjournal migrate --db \(blank)`")

    assertOneLineError(try runCLI(["sessions", "--db", "/dev/zero"]), contains: "character device")
    let fifo = directory.path("fifo")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    assertOneLineError(try runCLI(["sessions", "--db", fifo]), contains: "FIFO")

    let negative = try runCLI(["show", session, "--at", "-1", "--db", path])
    XCTAssertEqual(negative.status, 64)
    XCTAssertTrue(negative.stderr.contains("sequences start at 0"), negative.stderr)
    XCTAssertFalse(negative.stderr.contains("Missing value"), negative.stderr)

    let yearZero = try runCLI(["show", session, "--at-time", "0000-01-01", "--db", path])
    assertOneLineError(yearZero, contains: "after 0000-01-01T00:00:00.000Z")

    for command in [["demo"], ["import", directory.path("none.ndjson")], ["sessions"]] {
      let slashed = directory.path("slashed.sqlite") + "/"
      let result = try runCLI(command + ["--db", slashed])
      XCTAssertEqual(result.status, 2, "\(command)")
      XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("slashed.sqlite")))
    }
    let demoSlash = try runCLI(["demo", "--db", directory.path("slashed.sqlite") + "/"])
    XCTAssertTrue(demoSlash.stderr.contains("ends with a slash"), demoSlash.stderr)

    // verify on a file whose first page is damaged does not advise to run verify.
    let (broken, _) = try makeDemo("broken.sqlite")
    var bytes = [UInt8](try fileBytes(broken))
    for offset in 100..<300 { bytes[offset] = 0xFF }
    try Data(bytes).write(to: URL(fileURLWithPath: broken))
    let verify = try runCLI(["verify", "--db", broken])
    XCTAssertNotEqual(verify.status, 0)
    XCTAssertFalse(verify.stderr.contains("run `stackjournal verify`"), verify.stderr)
    XCTAssertTrue(verify.stderr.hasPrefix("Error: "), verify.stderr)
  }

  /// Found by fuzzing: a stored number beyond a Double's range was printed as it is, which
  /// JSON readers such as JSONSerialization refuse; `--json` output stays readable.
  func testJSONOutputStaysReadableWithANumberBeyondADoublesRange() throws {
    let (path, session) = try makeDemo()
    try tamper(path, #"UPDATE journal SET payload = '{"x":1e999}' WHERE sequence = 2"#)
    for command in [["log", session, "--json"], ["log", session, "--ndjson"]] {
      let result = try runCLI(command + ["--db", path])
      XCTAssertEqual(result.status, 0, result.stderr)
      XCTAssertTrue(result.stdout.contains("1e999"), result.stdout)
      if command.last == "--json" {
        XCTAssertNoThrow(try result.json(), result.stdout)
      } else {
        XCTAssertNoThrow(try result.jsonLines(), result.stdout)
      }
    }
  }

  // MARK: 13. Import line bound

  func testImportOfAFileWithoutLineEndsStopsAtTheLineBound() throws {
    let started = Date()
    let result = try runCLI(
      ["import", "/dev/zero", "--db", directory.path("j.sqlite")], timeout: 60)
    assertOneLineError(result, contains: "Line 1 of /dev/zero is longer than 64 MiB")
    XCTAssertLessThan(Date().timeIntervalSince(started), 60)
    XCTAssertEqual(try files(), [])
  }

  // MARK: 14. log --follow after a compaction

  func testFollowSaysWhenACompactionRemovedEntriesItHadNotPrinted() async throws {
    let (path, session) = try makeDemo(snapshotInterval: 3)
    let follow = try CLIProcess([
      "log", session, "--follow", "--ndjson", "--poll-interval", "4000", "--db", path,
    ])
    defer { follow.stop() }
    try follow.waitForLines(10)
    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 3))
    let store = try await RecordingStore.open(
      session: SessionID(session), journal: journal, initialState: RootFeature.State()
    ) { RootFeature() }
    for count in 1...6 { try await store.send(.pushCounterTapped(count: count)) }
    let compact = try runCLI(["compact", session, "--keep-snapshots", "1", "--db", path])
    XCTAssertEqual(compact.status, 0, compact.stderr)
    for count in 7...8 { try await store.send(.pushCounterTapped(count: count)) }
    let lines = try follow.waitForLines(13, timeout: 30)
    let sequences = try lines.map {
      try XCTUnwrap(
        (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["sequence"]
          as? Int)
    }
    XCTAssertEqual(sequences, Array(1...10) + [16, 17, 18])
    XCTAssertTrue(
      follow.standardError.contains(
        "entries 11…15 of session \(session) were removed by a compaction before they were "
          + "printed; going on from entry 16"), follow.standardError)
  }
}
