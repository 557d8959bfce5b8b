import GRDB

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
