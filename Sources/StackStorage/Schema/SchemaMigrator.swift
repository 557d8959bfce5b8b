import Foundation
import GRDB
import Logging

/// Applies the embedded migrations, each once and in its own transaction, and records them.
enum SchemaMigrator {
  /// Applies every pending migration (up to `version` when given) to a writable database,
  /// logging each one it applies (`notice`).
  ///
  /// Each migration re-reads the schema state inside its own immediate transaction, so two
  /// processes opening one file at once apply each migration once.
  static func migrate(
    _ writer: any DatabaseWriter,
    through version: Int? = nil,
    path: String?,
    now: @escaping () -> Date = Date.init,
    logger: Logger = SQLiteJournal.discardingLogger
  ) throws {
    let target = version ?? Migration.latestVersion
    try writer.writeWithoutTransaction { db in
      for migration in Migration.all.prefix(target) {
        var applied = false
        try db.inTransaction(.immediate) {
          let state = try SchemaState.read(db)
          let pending = try state.pending(Migration.all, path: path)
          guard pending.first?.version == migration.version else { return .commit }
          if !state.hasMigrationTable {
            try db.execute(
              sql: """
                CREATE TABLE schema_migrations (
                  version INTEGER NOT NULL PRIMARY KEY,
                  name TEXT NOT NULL,
                  checksum TEXT NOT NULL,
                  applied_at TEXT NOT NULL
                )
                """
            )
          }
          try db.execute(sql: migration.sql)
          try db.execute(
            sql: "INSERT INTO schema_migrations (version, name, checksum, applied_at) "
              + "VALUES (?, ?, ?, ?)",
            arguments: [
              migration.version, migration.name, migration.checksum,
              Timestamp.string(from: now()),
            ]
          )
          try db.execute(sql: "PRAGMA application_id = \(SchemaState.applicationID)")
          try db.execute(sql: "PRAGMA user_version = \(migration.version)")
          applied = true
          return .commit
        }
        if applied {
          logger.notice(
            "applied a journal migration",
            metadata: [
              "journal": "\(path ?? "memory")", "migration.version": "\(migration.version)",
              "migration.name": "\(migration.name)",
            ])
        }
      }
    }
  }
}


/// A row of the `schema_migrations` table. The time it was applied is read as whatever the
/// column holds, so a value that is not text is reported rather than refused.
struct MigrationRecord: FetchableRecord {
  var version: Int
  var name: String
  var checksum: String
  var appliedAt: DatabaseValue

  init(row: Row) throws {
    version = row["version"]
    name = row["name"]
    checksum = row["checksum"]
    appliedAt = row["applied_at"]
  }

  /// The recorded migrations, by version.
  static func fetchAll(_ db: Database) throws -> [MigrationRecord] {
    try fetchAll(
      db, sql: "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")
  }
}
