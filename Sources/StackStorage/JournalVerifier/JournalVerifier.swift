import Foundation
import GRDB

/// Checks a journal file and its sessions' rows without the app's types; only reads.
///
/// ```swift
/// let report = try JournalVerifier().verify(journal)
/// if !report.isClean { print(report.sessions.flatMap(\.problems)) }
/// ```
///
/// The file: SQLite's integrity and foreign-key checks, the recorded migrations against this
/// build's checksums, and its schema against the one the migrations make (nothing added,
/// changed or replaced by hand). Each session, in one read transaction (a consistent view while
/// an app appends): sequences from its oldest snapshot to its head with no gap; every delta
/// applies to the stacks before it (pushing no ID its stack holds, never moving a next ID back)
/// and keeps every ID below its stack's next generation; every snapshot's stacks equal the stacks
/// rebuilt from the journal at its sequence (see `DeltaWalk`); the stack rows equal those at
/// the head; payloads, states and times parse.
///
/// The checks are functions over a connection inside a transaction their caller opens:
/// ``SQLiteJournal`` opens one for the file and its sessions.
public struct JournalVerifier: Sendable {
  /// Stop checking a session after this many problems.
  public var maxProblemsPerSession: Int

  /// Creates a verifier that stops checking a session after `maxProblemsPerSession` problems.
  public init(maxProblemsPerSession: Int = 20) {
    self.maxProblemsPerSession = maxProblemsPerSession
  }

  /// Checks the file and one session, or every session when `session` is `nil`: the same as
  /// ``SQLiteJournal/verifyStorage(session:maxProblemsPerSession:)``, which reads the file and
  /// every session in one read transaction.
  public func verify(
    _ journal: SQLiteJournal,
    session: SessionID? = nil
  ) throws -> StorageVerification {
    try journal.verifyStorage(session: session, maxProblemsPerSession: maxProblemsPerSession)
  }

  /// The problems `PRAGMA integrity_check` reports; empty when the database is sound.
  public func integrityProblems(_ journal: SQLiteJournal) throws -> [String] {
    try journal.integrityProblems()
  }

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
  func verifySession(_ session: SessionID, _ db: Database, _ stored: StoredValues) throws
    -> SessionVerification
  {
    var check = SessionCheck(
      session: session, head: try SessionRows.requireHead(db, session, stored, bounded: false),
      maxProblems: maxProblemsPerSession)
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
