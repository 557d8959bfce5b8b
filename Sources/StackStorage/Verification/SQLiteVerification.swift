import Foundation
import GRDB

/// The checks of an SQLite journal and its sessions' rows, without the app's types: the
/// functions behind ``SQLiteJournal/verifyStorage(session:maxProblemsPerSession:)``, run inside
/// the one read transaction the journal opens (a consistent view while an app appends).
///
/// The file: SQLite's integrity and foreign-key checks, the recorded migrations against this
/// build's checksums, and its schema against the one the migrations make (nothing added,
/// changed or replaced by hand). Each session: what ``SessionCheck`` checks on every backend.
enum SQLiteVerification {
  /// What the file holds and which sessions to check: the file's part of a verification, read
  /// through `db`. Throws ``StorageError/Code/unknownSession`` for a `session` it lacks.
  static func checkFile(_ db: Database, session: SessionID?, _ stored: StoredValues) throws
    -> FileCheck
  {
    let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    let migrations = try MigrationRecord.fetchAll(db).map(Self.check)
    let ids: [SessionID]
    if let session {
      _ = try SessionRows.requireHead(db, session, stored, bounded: false)
      ids = [session]
    } else {
      ids = try SessionRows.ids(db)
    }
    let shape = try SchemaShape.read(db).deviations(
      from: try SchemaShape.expected(atVersion: min(max(version, 0), Migration.latestVersion)))
    return FileCheck(
      schemaVersion: version, migrations: migrations,
      problems: try fileProblems(db) + shape.problems, sessions: ids)
  }

  /// The file's part of a verification, and the sessions it lists.
  struct FileCheck {
    var schemaVersion: Int
    var migrations: [StorageVerification.MigrationCheck]
    var problems: [String]
    var sessions: [SessionID]

    /// The verification of the file with its sessions' checks.
    func verification(_ sessions: [SessionVerification]) -> StorageVerification {
      StorageVerification(
        schemaVersion: schemaVersion, latestSchemaVersion: Migration.latestVersion,
        migrations: migrations, fileProblems: problems, sessions: sessions)
    }
  }

  /// The problems `PRAGMA integrity_check` reports through `db`; empty when it is sound.
  static func integrityProblems(_ db: Database) throws -> [String] {
    try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
  }

  /// What SQLite's integrity and foreign-key checks report.
  private static func fileProblems(_ db: Database) throws -> [String] {
    var problems = try integrityProblems(db)
    let foreignKeys = try ForeignKeyViolation.fetchAll(db, sql: "PRAGMA foreign_key_check")
    for violation in foreignKeys.prefix(20) {
      problems.append("a row of \(violation.table) refers to a missing row of \(violation.parent)")
    }
    if foreignKeys.count > 20 {
      problems.append("\(foreignKeys.count - 20) more rows refer to missing rows")
    }
    // The journal's session number is not a foreign key (see migration 4): checked here.
    if let orphans = try JournalRows.entriesOfNoSession(db) {
      problems.append(
        "\(orphans.count) journal entries have a session number no session has (the smallest: "
          + "\(orphans.firstNumber))")
    }
    return problems
  }

  /// A recorded migration compared with this build's.
  private static func check(_ record: MigrationRecord) -> StorageVerification.MigrationCheck {
    let known = Migration.all.first { $0.version == record.version }
    let appliedAt = String.fromDatabaseValue(record.appliedAt) ?? "\(record.appliedAt)"
    return .init(
      version: record.version, name: record.name,
      checksumMatches: known?.checksum == record.checksum, nameMatches: known?.name == record.name,
      malformedAppliedAt: Timestamp.date(from: appliedAt) == nil ? appliedAt : nil)
  }

  /// Checks one session's rows through `db`, inside the caller's transaction.
  static func verifySession(
    _ session: SessionID, _ db: Database, _ stored: StoredValues, maxProblems: Int
  ) throws -> SessionVerification {
    var check = SessionCheck(
      session: session, head: try SessionRows.requireHead(db, session, stored, bounded: false),
      maxProblems: maxProblems)
    if let row = try SessionRows.storedRow(db, session) { check.checkSessionRow(row) }
    try check.run(SQLiteSessionRowSource(db: db, session: session))
    return check.result
  }
}

/// A row of `PRAGMA foreign_key_check`.
private struct ForeignKeyViolation: StoredRowRecord {
  var table: String
  var parent: String
}

/// A session's rows read through an SQLite connection, inside the caller's transaction.
struct SQLiteSessionRowSource: SessionRowSource {
  let db: Database
  let session: SessionID

  func snapshotSequences() throws -> [Int64] {
    try SnapshotRows.sequences(db, session: session)
  }

  func snapshot(at sequence: Int64) throws -> StoredSnapshotRow? {
    try SnapshotRows.snapshot(db, session: session, at: sequence)
  }

  func entries(_ body: (JournalRow) throws -> Bool) throws {
    let entries = try JournalRows.all(db, session: session)
    while let row = try entries.next() {
      guard try body(row) else { return }
    }
  }

  func stackRows() throws -> [StackRecord] {
    try StackRows.load(db, session: session.rawValue)
  }
}
