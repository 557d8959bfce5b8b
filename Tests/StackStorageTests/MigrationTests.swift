import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class MigrationTests: StorageTestCase {
  // MARK: - Migrating

  func testEveryMigrationAppliesToAnEmptyFileAndInMemory() throws {
    for storage in Storage.allCases {
      let journal = try makeJournal(storage)
      XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion)
      XCTAssertEqual(SQLiteJournal.latestSchemaVersion, Migration.all.count)
      try journal.database.read { db in
        XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA user_version"), Migration.all.count)
        XCTAssertEqual(
          try Int32(Int.fetchOne(db, sql: "PRAGMA application_id")!), SchemaState.applicationID)
        let recorded = try Row.fetchAll(
          db, sql: "SELECT version, name, checksum, applied_at FROM schema_migrations")
        XCTAssertEqual(recorded.map { $0[0] as Int }, Migration.all.map(\.version))
        XCTAssertEqual(recorded.map { $0[1] as String }, Migration.all.map(\.name))
        XCTAssertEqual(recorded.map { $0[2] as String }, Migration.all.map(\.checksum))
        XCTAssertTrue(recorded.allSatisfy { Timestamp.date(from: $0[3]) != nil })
        for table in ["sessions", "journal", "snapshots", "stacks", "stack_elements"] {
          XCTAssertTrue(try db.tableExists(table), table)
        }
      }
      XCTAssertEqual(try journal.integrityProblems(), [])
    }
  }

  func testReopeningAnUpToDateFileChangesNothing() async throws {
    let path = try await makeClosedJournalFile("current.sqlite", appends: 3)
    let before = try fileBytes(path)
    do {
      let journal = try SQLiteJournal(path: path, options: .init(readOnly: true))
      XCTAssertEqual(try journal.headSequence(session: "s"), 3)
    }
    XCTAssertEqual(try fileBytes(path), before)
    XCTAssertEqual(try SQLiteJournal.pendingMigrations(at: path).pending, [])
    let unmigrated = try SQLiteJournal(path: path, options: .init(migrate: false))
    XCTAssertEqual(unmigrated.schemaVersion, SQLiteJournal.latestSchemaVersion)
  }

  func testAMissingDirectoryIsAnIOError() async {
    let path = directory.path("missing/journal.sqlite")
    let error = await assertStorageError(.io) { try SQLiteJournal(path: path) }
    XCTAssertTrue(error?.message.contains(path) ?? false, "\(String(describing: error))")
  }

  /// A database made at each schema version up to the latest (by applying a prefix of the
  /// migrations, plus that version's fixture rows) opens, migrates to the latest version and
  /// reads back the same stacks. With one migration so far, the older versions are version 0
  /// (marked as ours, no tables); the version-1 fixture runs at the latest version, and runs
  /// as an older version once migration 0002 exists.
  func testADatabaseAtEachOlderVersionIsMigratedAndReadsBackTheSameStacks() async throws {
    for version in 0...SQLiteJournal.latestSchemaVersion {
      let path = directory.path("version-\(version).sqlite")
      try makeDatabase(atVersion: version, path: path)

      let plan = try SQLiteJournal.pendingMigrations(at: path)
      XCTAssertEqual(plan.current, version)
      XCTAssertEqual(plan.target, SQLiteJournal.latestSchemaVersion)
      XCTAssertEqual(plan.pending, Migration.all.dropFirst(version).map(\.name))

      let journal = try SQLiteJournal(path: path)
      XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion, "from \(version)")
      if let fixture = Self.fixtures[version] {
        XCTAssertEqual(try journal.headSequence(session: "fixture"), fixture.stacksAt.keys.max())
        XCTAssertEqual(
          try journal.headStacks(session: "fixture"), fixture.stacksAt[fixture.stacksAt.keys.max()!]
        )
        for (sequence, stacks) in fixture.stacksAt {
          XCTAssertEqual(
            try journal.stacks(session: "fixture", at: sequence), stacks,
            "version \(version), sequence \(sequence)")
        }
        var types: [String] = []
        try await journal.entries(session: "fixture") {
          types.append($0.type)
          return true
        }
        XCTAssertEqual(types, fixture.types)
      }

      var root = Root()
      root.tabA.append(.counter(Counter()))
      _ = try await journal.createSession(
        "after-migration", initial: StateEncoding.encode(root), version: 1)
      root.tabA.append(.home)
      _ = try await journal.append(
        session: "after-migration", expectedSequence: 0, .test("tabA.push", state: root))
      XCTAssertEqual(
        try journal.headStacks(session: "after-migration"), try StateEncoding.encode(root).stacks)
      XCTAssertEqual(try journal.integrityProblems(), [])
    }
  }

  /// Schema 3 computes each migrated entry's `latest_at`, so the entry a time finds is the same
  /// after the migration, also where the clock went back.
  func testTimeLookupsOnAMigratedFileWhoseClockWentBack() throws {
    let path = directory.path("version-2-clock.sqlite")
    try makeDatabase(atVersion: 2, path: path)
    let journal = try SQLiteJournal(path: path)
    let at = { (time: String) in
      try journal.sequence(session: "fixture", atOrBefore: XCTUnwrap(Timestamp.date(from: time)))
    }
    // Entries 1 and 3 were recorded at 09:30:01, entry 2 at 09:30:02.
    XCTAssertEqual(try at("2025-01-31T09:30:00.999Z"), 0)
    XCTAssertEqual(try at("2025-01-31T09:30:01.500Z"), 3)
    XCTAssertEqual(try at("2025-01-31T09:30:02.000Z"), 2)
    let latest = try journal.database.read { db in
      try String.fetchAll(
        db,
        sql: "SELECT latest_at FROM journal WHERE session_number = "
          + "(SELECT number FROM sessions WHERE id = 'fixture') ORDER BY sequence")
    }
    XCTAssertEqual(
      latest,
      ["2025-01-31T09:30:01.000Z", "2025-01-31T09:30:02.000Z", "2025-01-31T09:30:02.000Z"])
    let info = try XCTUnwrap(journal.session("fixture"))
    XCTAssertEqual(info.firstActivity, Timestamp.date(from: "2025-01-31T09:30:01.000Z"))
    XCTAssertEqual(info.lastActivity, Timestamp.date(from: "2025-01-31T09:30:02.000Z"))
  }

  /// Schema 3 copies the journal, which needs room for a second copy until it commits. A disk
  /// that fills up on the way (SQLite's page limit stands in for it) fails the migration as a
  /// full disk and leaves the file at schema 2 with every row; with room, opening migrates it.
  func testAMigrationThatRunsOutOfRoomLeavesTheFileAsItWas() throws {
    let path = directory.path("version-2-full.sqlite")
    try makeDatabase(atVersion: 2, path: path)
    let columns = "session, sequence, recorded_at, type, version, payload, delta"
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      for sequence in 4...400 {
        try db.execute(
          sql: "INSERT INTO journal (\(columns)) VALUES ('fixture', ?, ?, 'path.element', 1, ?, "
            + "'{\"changes\":[]}')",
          arguments: [
            sequence, "2025-01-31T09:31:\(String(format: "%02d", sequence % 60)).000Z",
            "{\"note\":\"\(String(repeating: "x", count: 300))\"}",
          ])
      }
    }
    let select = "SELECT \(columns) FROM journal ORDER BY session, sequence"
    let before = try queue.read { db in try Row.fetchAll(db, sql: select) }
    try queue.writeWithoutTransaction { db in
      let pages = try XCTUnwrap(Int.fetchOne(db, sql: "PRAGMA page_count"))
      try db.execute(sql: "PRAGMA max_page_count = \(pages + 8)")
    }
    XCTAssertThrowsError(try SchemaMigrator.migrate(queue, path: path)) { error in
      guard let error = error as? DatabaseError else {
        return XCTFail("not an SQLite error: \(error)")
      }
      let storage = StorageError(databaseError: error, path: path, doing: "migrating")
      XCTAssertEqual(storage.code, .diskFull, storage.message)
    }
    try queue.read { db in
      XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA user_version"), 2)
      XCTAssertEqual(try Row.fetchAll(db, sql: select), before)
      XCTAssertTrue(try db.indexes(on: "journal").contains { $0.name == "journal_by_time" })
      XCTAssertFalse(try db.tableExists("journal_v3"))
    }
    try queue.close()

    let journal = try SQLiteJournal(path: path)
    XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion)
    try journal.database.read { db in
      XCTAssertEqual(
        try Row.fetchAll(
          db,
          sql: "SELECT s.id AS session, j.sequence, j.recorded_at, j.type, j.version, j.payload, "
            + "j.delta FROM journal j JOIN sessions s ON s.number = j.session_number "
            + "ORDER BY s.id, j.sequence"),
        before)
    }
    XCTAssertEqual(
      try journal.sequence(
        session: "fixture", atOrBefore: XCTUnwrap(Timestamp.date(from: "2025-01-31T09:31:59.000Z"))),
      359)
  }

  /// A file at schema 1, 2 or 3 migrates to schema 4 with every entry of every session as it
  /// was: each keyed by its session's number (given in the order sessions are listed) and its
  /// sequence, and read back through the journal the same.
  func testEveryOlderSchemaMigratesToOneKeyKeepingEveryEntry() async throws {
    let columns = "sequence, recorded_at, type, version, payload, delta"
    for version in 1...3 {
      let path = directory.path("keys-from-\(version).sqlite")
      try makeDatabase(atVersion: version, path: path)
      let queue = try DatabaseQueue(path: path)
      let before = try queue.read { db in
        try Row.fetchAll(
          db, sql: "SELECT session, \(columns)\(version == 3 ? ", latest_at" : "") FROM journal "
            + "ORDER BY session, sequence")
      }
      try queue.close()
      XCTAssertEqual(before.count, version == 3 ? 5 : version + 1, "version \(version)")
      let rows = before.map(\.description)

      let journal = try SQLiteJournal(path: path)
      XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion)
      try await journal.database.read { db in
        let after = try Row.fetchAll(
          db,
          sql: "SELECT s.id AS session, j.sequence, j.recorded_at, j.type, j.version, "
            + "j.payload, j.delta\(version == 3 ? ", j.latest_at" : "") FROM journal j "
            + "JOIN sessions s ON s.number = j.session_number ORDER BY s.id, j.sequence")
        XCTAssertEqual(after.map(\.description), rows, "version \(version)")
        let numbers = try Row.fetchAll(
          db, sql: "SELECT id, number FROM sessions ORDER BY number"
        ).map { "\($0[0] as String)=\($0[1] as Int64)" }
        XCTAssertEqual(numbers, version == 3 ? ["other=1", "fixture=2"] : ["fixture=1"])
        let keys = try Row.fetchAll(
          db, sql: "SELECT key, session_number * 4294967296 + sequence FROM journal")
        XCTAssertFalse(keys.isEmpty)
        XCTAssertTrue(keys.allSatisfy { ($0[0] as Int64) == ($0[1] as Int64) }, "\(keys)")
        XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_foreign_key_check"), 0)
      }
      for session in ["fixture", "other"] as [SessionID] where version == 3 || session == "fixture" {
        var read: [String] = []
        try await journal.entries(session: session) { entry in
          read.append("\(entry.sequence) \(Timestamp.string(from: entry.recordedAt)) \(entry.type)")
          return true
        }
        let expected = before.filter { ($0["session"] as String) == session.rawValue }.map {
          "\($0["sequence"] as Int64) \($0["recorded_at"] as String) \($0["type"] as String)"
        }
        XCTAssertEqual(read, expected, "version \(version), \(session)")
      }
      if version == 3 {
        // Entry 3 of the fixture was recorded a second before entry 2; other's entries fall
        // between the fixture's.
        let at = { (session: SessionID, time: String) in
          try journal.sequence(session: session, atOrBefore: XCTUnwrap(Timestamp.date(from: time)))
        }
        XCTAssertEqual(try at("fixture", "2025-01-31T09:30:01.700Z"), 3)
        XCTAssertEqual(try at("other", "2025-01-31T09:30:01.700Z"), 1)
        XCTAssertEqual(try at("fixture", "2025-01-31T09:30:02.000Z"), 2)
        XCTAssertEqual(try at("other", "2025-01-31T09:30:02.000Z"), 1)
        XCTAssertEqual(try journal.headSequence(session: "other"), 2)
        XCTAssertEqual(try journal.headSequence(session: "fixture"), 3)
      }
      XCTAssertEqual(try journal.integrityProblems(), [])
      try journal.close()
    }
  }

  /// An entry schema 4's key cannot hold (a sequence of 2³² or more, which only a hand edit
  /// writes) fails the migration, which leaves the file at schema 3 with every row.
  func testAnEntryTheKeyCannotHoldFailsTheMigrationAndLeavesTheFile() throws {
    let path = directory.path("version-3-beyond.sqlite")
    try makeDatabase(atVersion: 3, path: path)
    try withQueue(path) { db in
      try db.execute(
        sql: "UPDATE journal SET sequence = 4294967296 WHERE session = 'other' AND sequence = 2")
    }
    let select = "SELECT * FROM journal ORDER BY session, sequence"
    let rows = { (path: String) throws -> [String] in
      let queue = try DatabaseQueue(path: path)
      defer { try? queue.close() }
      return try queue.read { db in
        XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA user_version"), 3)
        return try Row.fetchAll(db, sql: select).map(\.description)
      }
    }
    let before = try rows(path)
    XCTAssertEqual(before.count, 5)
    XCTAssertThrowsError(try SQLiteJournal(path: path)) { error in
      XCTAssertTrue(
        "\(error)".contains("key_of_a_session_and_a_sequence"), "\(error)")
    }
    XCTAssertEqual(try rows(path), before)
  }

  // MARK: - Refusing

  func testANewerSchemaIsRefusedNamingBothVersions() async throws {
    let path = try await makeClosedJournalFile("newer.sqlite")
    let newer = SQLiteJournal.latestSchemaVersion + 1
    try withQueue(path) { db in
      try db.execute(
        sql: "INSERT INTO schema_migrations VALUES (?, ?, ?, ?)",
        arguments: [
          newer, "9999_future.sql", String(repeating: "0", count: 64), "2030-01-01T00:00:00.000Z",
        ])
      try db.execute(sql: "PRAGMA user_version = \(newer)")
    }
    let error = try await assertRefused(path, .newerSchema)
    XCTAssertTrue(
      error?.message.contains("version \(newer)") ?? false, "\(String(describing: error))")
    XCTAssertTrue(
      error?.message.contains("version \(SQLiteJournal.latestSchemaVersion)") ?? false,
      "\(String(describing: error))")
  }

  func testAnEditedMigrationIsRefused() async throws {
    let path = try await makeClosedJournalFile("edited.sqlite")
    try withQueue(path) { db in
      try db.execute(
        sql: "UPDATE schema_migrations SET checksum = ? WHERE version = 1",
        arguments: [String(repeating: "a", count: 64)])
    }
    let error = try await assertRefused(path, .checksumMismatch)
    XCTAssertTrue(error?.message.contains(Migration.all[0].name) ?? false)
  }

  func testATextFileIsRefused() async throws {
    let path = directory.path("notes.txt")
    try Data("These are notes, not a database.\n".utf8).write(to: URL(fileURLWithPath: path))
    try await assertRefused(path, .notADatabase)
  }

  func testAnEmptyFileIsRefused() async throws {
    let path = directory.path("empty.sqlite")
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
    let error = try await assertRefused(path, .emptyFile)
    XCTAssertTrue(
      error?.message.contains("empty file, not a StackJournal database") ?? false)
  }

  func testATruncatedDatabaseIsRefused() async throws {
    let path = try await makeClosedJournalFile("truncated.sqlite", appends: 300)
    let bytes = try fileBytes(path)
    let pageSize = 4096
    XCTAssertGreaterThan(bytes.count, 8 * pageSize)
    for length in [bytes.count / pageSize / 2 * pageSize, bytes.count - 1000, 50] {
      try bytes.prefix(length).write(to: URL(fileURLWithPath: path))
      try await assertRefused(path, .truncated)
    }
  }

  func testAnotherApplicationsDatabaseIsRefused() async throws {
    let path = directory.path("other.sqlite")
    try withQueue(path) { db in
      try db.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hi')")
    }
    try await assertRefused(path, .notStackJournal)
  }

  func testReadOnlyAndNoMigrateRefuseAnOlderSchema() async throws {
    let path = directory.path("old.sqlite")
    try makeDatabase(atVersion: 0, path: path)
    let before = try fileBytes(path)
    let error = await assertStorageError(.olderSchema) {
      try SQLiteJournal(path: path, options: .init(readOnly: true))
    }
    XCTAssertTrue(error?.message.contains("stackjournal migrate") ?? false)
    await assertStorageError(.olderSchema) {
      try SQLiteJournal(path: path, options: .init(migrate: false))
    }
    XCTAssertEqual(try fileBytes(path), before)
    XCTAssertEqual(try SQLiteJournal(path: path).schemaVersion, SQLiteJournal.latestSchemaVersion)
  }

  func testReadOnlyNeverCreatesAFileNorWrites() async throws {
    let path = directory.path("missing.sqlite")
    await assertStorageError(.fileNotFound) {
      try SQLiteJournal(path: path, options: .init(readOnly: true))
    }
    await assertStorageError(.fileNotFound) { try SQLiteJournal.pendingMigrations(at: path) }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))

    let existing = try await makeClosedJournalFile("existing.sqlite", appends: 1)
    let journal = try SQLiteJournal(path: existing, options: .init(readOnly: true))
    XCTAssertEqual(try journal.headStacks(session: "s").map(\.path), ["tabA", "tabB"])
    await assertStorageError(.readOnly) {
      try await journal.append(session: "s", expectedSequence: 1, .test("x", state: Root()))
    }
    await assertStorageError(.readOnly) { try journal.deleteSession("s") }
    await assertStorageError(.readOnly) { try SQLiteJournal.inMemory(options: .init(readOnly: true)) }
  }

  func testEveryMigrationFileIsListedAndEmbedded() throws {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let folder = root.appendingPathComponent("Migrations")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".sql") }.sorted()
    XCTAssertFalse(files.isEmpty)
    XCTAssertEqual(Migration.all.map(\.name), files, "Migrations/Migrations.swift lists every file")
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    for file in files {
      XCTAssertTrue(manifest.contains(#".embedInCode("\#(file)")"#), "Package.swift embeds \(file)")
      let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
      let migration = try XCTUnwrap(Migration.all.first { $0.name == file })
      XCTAssertEqual(migration.checksum, SHA256.hex(bytes), "\(file) is embedded as it is on disk")
    }
  }

  func testSHA256() {
    XCTAssertEqual(
      SHA256.hex(Array("abc".utf8)),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    XCTAssertEqual(
      SHA256.hex([UInt8]()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    XCTAssertEqual(
      SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    XCTAssertEqual(
      SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1000)),
      "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
  }

  // MARK: - Helpers

  /// A journal file with a session `s` and `appends` entries, closed (its WAL checkpointed).
  func makeClosedJournalFile(_ name: String, appends: Int = 0) async throws -> String {
    let path = directory.path(name)
    do {
      let journal = try SQLiteJournal(path: path)
      var root = Root()
      _ = try await journal.createSession("s", initial: StateEncoding.encode(root), version: 1)
      for sequence in 0..<appends {
        root.tabA.append(.counter(Counter(count: sequence)))
        _ = try await journal.append(
          session: "s", expectedSequence: Int64(sequence),
          .test(
            "tabA.push", payload: "\"\(String(repeating: "x", count: 198))\"", state: root))
      }
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"), "closed cleanly")
    return path
  }

  /// Runs `body` on a plain GRDB connection to the file, then closes it.
  func withQueue(_ path: String, _ body: (Database) throws -> Void) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction(body)
    try queue.close()
  }

  /// Builds a database at a schema version: our mark and no tables at 0, else the migrations
  /// up to `version` and that version's fixture rows.
  func makeDatabase(atVersion version: Int, path: String) throws {
    let queue = try DatabaseQueue(path: path)
    if version == 0 {
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA application_id = \(SchemaState.applicationID)")
      }
    } else {
      try SchemaMigrator.migrate(queue, through: version, path: path)
      if let fixture = Self.fixtures[version] {
        try queue.write { db in try db.execute(sql: fixture.sql) }
      }
    }
    try queue.close()
  }

  /// Asserts that opening the file (read-write, read-only, or to plan migrations) fails with
  /// `code` and leaves the file byte-for-byte unchanged.
  @discardableResult
  func assertRefused(
    _ path: String,
    _ code: StorageError.Code,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async throws -> StorageError? {
    let before = try fileBytes(path)
    let siblings = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    let error = await assertStorageError(code, file: file, line: line) { try SQLiteJournal(path: path) }
    XCTAssertEqual(error?.path, path, file: file, line: line)
    await assertStorageError(code, file: file, line: line) {
      try SQLiteJournal(path: path, options: .init(readOnly: true))
    }
    await assertStorageError(code, file: file, line: line) {
      try SQLiteJournal.pendingMigrations(at: path)
    }
    XCTAssertEqual(try fileBytes(path), before, "the file is unchanged", file: file, line: line)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted(), siblings,
      "no file was created next to it", file: file, line: line)
    return error
  }

  struct Fixture {
    /// Rows written in that version's schema.
    var sql: String
    var types: [String]
    /// The stacks the rows describe at each sequence.
    var stacksAt: [Int64: [StackRecord]]
  }

  static func counter(_ id: StackElementID, _ count: Int) -> StoredElement {
    StoredElement(id: id, caseName: "counter", state: #"{"counter":{"_0":{"count":\#(count)}}}"#)
  }

  /// Rows in each schema version's shape. When a migration changes a table, add the fixture of
  /// the version before it here (a copy of the last one, in that version's shape).
  static let fixtures: [Int: Fixture] = [1: version1, 2: version2, 3: version3]

  static let version1 = Fixture(
      sql: #"""
        INSERT INTO sessions (id, created_at, metadata, head_sequence)
          VALUES ('fixture', '2025-01-31T09:30:00.000Z', '{"user":"ada"}', 2);
        INSERT INTO snapshots (session, sequence, version, state, stacks, recorded_at)
          VALUES ('fixture', 0, 1,
            '{"path":{"elements":[{"id":0,"state":{"counter":{"_0":{"count":1}}}}],"nextID":1}}',
            '[{"elements":[{"caseName":"counter","id":0,"state":"{\"counter\":{\"_0\":{\"count\":1}}}"}],"nextID":1,"path":"path"}]',
            '2025-01-31T09:30:00.000Z');
        INSERT INTO journal (session, sequence, recorded_at, type, version, payload, delta)
          VALUES ('fixture', 1, '2025-01-31T09:30:01.000Z', 'path.push', 1, '{"id":1}',
            '{"changes":[{"changed":[],"ids":[0,1],"nextID":2,"path":"path","popped":[],"pushed":[{"caseName":"counter","id":1,"state":"{\"counter\":{\"_0\":{\"count\":2}}}"}],"removed":false}]}'),
          ('fixture', 2, '2025-01-31T09:30:02.000Z', 'path.popFrom', 1, '{"id":1}',
            '{"changes":[{"changed":[],"ids":[0,2],"nextID":3,"path":"path","popped":[1],"pushed":[{"caseName":"counter","id":2,"state":"{\"counter\":{\"_0\":{\"count\":3}}}"}],"removed":false}]}');
        INSERT INTO stacks (session, path, next_id) VALUES ('fixture', 'path', 3);
        INSERT INTO stack_elements (session, path, id, position, case_name, state) VALUES
          ('fixture', 'path', 0, 0, 'counter', '{"counter":{"_0":{"count":1}}}'),
          ('fixture', 'path', 2, 1, 'counter', '{"counter":{"_0":{"count":3}}}');
        """#,
      types: ["path.push", "path.popFrom"],
      stacksAt: [
        0: [StackRecord(path: "path", nextID: 1, elements: [counter(0, 1)])],
        1: [StackRecord(path: "path", nextID: 2, elements: [counter(0, 1), counter(1, 2)])],
        2: [StackRecord(path: "path", nextID: 3, elements: [counter(0, 1), counter(2, 3)])],
      ]
    )

  /// Version 1's rows and a third entry recorded a second before the second one (the clock
  /// went back): schema 3 computes `latest_at` for it.
  static let version2 = Fixture(
    sql: version1.sql
      + #"""
        INSERT INTO journal (session, sequence, recorded_at, type, version, payload, delta)
          VALUES ('fixture', 3, '2025-01-31T09:30:01.000Z', 'path.popFrom', 1, '{"id":2}',
            '{"changes":[{"changed":[],"ids":[0],"nextID":3,"path":"path","popped":[2],"pushed":[],"removed":false}]}');
        DELETE FROM stack_elements WHERE session = 'fixture' AND id = 2;
        """#,
    types: ["path.push", "path.popFrom", "path.popFrom"],
    stacksAt: version1.stacksAt.merging(
      [3: [StackRecord(path: "path", nextID: 3, elements: [counter(0, 1)])]]) { $1 }
  )
  /// Version 2's rows in schema 3's shape (each entry's `latest_at` computed as migration 0003
  /// does), and a second session, `other`, created a second earlier with version 1's entries
  /// recorded half a second after the fixture's: the two sessions' entries interleave by time,
  /// and `other` comes first in the order schema 4 numbers sessions in.
  static let version3 = Fixture(
    sql: "CREATE TEMP TABLE fixture_journal (session, sequence, recorded_at, type, version, "
      + "payload, delta);\n"
      + (version2.sql + otherSession).replacingOccurrences(
        of: "INSERT INTO journal (", with: "INSERT INTO temp.fixture_journal (")
      + """
        INSERT INTO journal (session, sequence, recorded_at, latest_at, type, version, payload,
            delta)
          SELECT session, sequence, recorded_at,
            max(recorded_at) OVER (PARTITION BY session ORDER BY sequence ROWS UNBOUNDED PRECEDING),
            type, version, payload, delta
          FROM temp.fixture_journal;
        DROP TABLE temp.fixture_journal;
        """,
    types: version2.types,
    stacksAt: version2.stacksAt
  )

  /// Version 1's rows as the session `other`, created at 09:29:59 with its entries at 09:30:01.5
  /// and 09:30:02.5.
  static let otherSession = version1.sql
    .replacingOccurrences(of: "'fixture'", with: "'other'")
    .replacingOccurrences(of: "09:30:00.000Z", with: "09:29:59.000Z")
    .replacingOccurrences(of: "09:30:01.000Z", with: "09:30:01.500Z")
    .replacingOccurrences(of: "09:30:02.000Z", with: "09:30:02.500Z")
}
