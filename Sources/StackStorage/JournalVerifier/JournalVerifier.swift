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
/// changed or replaced by hand). Each session, in one read transaction (a consistent view while an app
/// appends): sequences from its oldest snapshot to its head with no gap; every delta applies to
/// the stacks before it (pushing no ID its stack holds, never moving a next ID back) and keeps
/// every ID below its stack's next generation; every snapshot's stacks equal the stacks rebuilt
/// from the journal at its sequence (see ``DeltaWalk``); the stack rows equal those at the head;
/// payloads, states and times parse.
public struct JournalVerifier: Sendable {
  /// Stop checking a session after this many problems.
  public var maxProblemsPerSession: Int

  /// Creates a verifier that stops checking a session after `maxProblemsPerSession` problems.
  public init(maxProblemsPerSession: Int = 20) {
    self.maxProblemsPerSession = maxProblemsPerSession
  }

  /// Checks the file and one session, or every session when `session` is `nil`.
  public func verify(
    _ journal: SQLiteJournal,
    session: SessionID? = nil
  ) throws -> StorageVerification {
    let (schemaVersion, migrations, fileProblems, ids) = try journal.read("verifying the file") {
      db -> (Int, [StorageVerification.MigrationCheck], [String], [SessionID]) in
      let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
      let migrations = try MigrationRecord.fetchAll(db).map(Self.check)
      let ids: [SessionID]
      if let session {
        _ = try journal.requireHead(db, session, bounded: false)
        ids = [session]
      } else {
        ids = try String.fetchAll(db, sql: "SELECT id FROM sessions ORDER BY created_at, id")
          .map(SessionID.init(rawValue:))
      }
      let shape = try SchemaShape.read(db).deviations(
        from: try SchemaShape.expected(atVersion: min(max(version, 0), Migration.latestVersion)))
      return (version, migrations, try Self.fileProblems(db) + shape.problems, ids)
    }
    var sessions: [SessionVerification] = []
    for id in ids {
      sessions.append(
        try journal.read("verifying session \(id)") { db in
          try verifySession(id, of: journal, db)
        })
    }
    return StorageVerification(
      schemaVersion: schemaVersion,
      latestSchemaVersion: Migration.latestVersion,
      migrations: migrations,
      fileProblems: fileProblems,
      sessions: sessions
    )
  }

  /// The problems `PRAGMA integrity_check` reports; empty when the database is sound.
  public func integrityProblems(_ journal: SQLiteJournal) throws -> [String] {
    try journal.read("checking integrity") { db in
      try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
    }
  }

  /// What SQLite's integrity and foreign-key checks report.
  private static func fileProblems(_ db: Database) throws -> [String] {
    var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
    let foreignKeys = try ForeignKeyViolation.fetchAll(db, sql: "PRAGMA foreign_key_check")
    for violation in foreignKeys.prefix(20) {
      problems.append("a row of \(violation.table) refers to a missing row of \(violation.parent)")
    }
    if foreignKeys.count > 20 {
      problems.append("\(foreignKeys.count - 20) more rows refer to missing rows")
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

  /// Checks one session's rows inside the current transaction.
  func verifySession(_ session: SessionID, of journal: SQLiteJournal, _ db: Database) throws
    -> SessionVerification
  {
    var check = SessionCheck(
      session: session, head: try journal.requireHead(db, session, bounded: false),
      maxProblems: maxProblemsPerSession)
    if let row = try StoredSessionRow.read(db, session) { check.checkSessionRow(row) }
    try check.run(SQLiteSessionRows(db: db, session: session))
    return check.result
  }
}

/// A row of `PRAGMA foreign_key_check`.
private struct ForeignKeyViolation: StoredRowRecord {
  var table: String
  var parent: String
}
