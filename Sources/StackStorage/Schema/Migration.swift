import StackJournalMigrations

/// One embedded SQL migration: `NNNN_name.sql` brings the schema to version `NNNN`.
struct Migration: Sendable {
  /// The schema version the migration brings the database to.
  var version: Int
  /// The file name, e.g. `0001_initial.sql`.
  var name: String
  /// The SQL text.
  var sql: String
  /// The SHA-256 of the file's bytes, in hexadecimal.
  var checksum: String

  /// Every embedded migration, oldest first.
  ///
  /// Traps when the embedded files are misnamed, skip a version or repeat one: that is a mistake
  /// in `Migrations/Migrations.swift`, not something a user can fix.
  static let all: [Migration] = {
    let migrations = EmbeddedMigrations.files.map { file in
      Migration(
        version: version(of: file.name),
        name: file.name,
        sql: String(decoding: file.bytes, as: UTF8.self),
        checksum: SHA256.hex(file.bytes)
      )
    }
    for (index, migration) in migrations.enumerated() {
      precondition(
        migration.version == index + 1,
        "Migrations/Migrations.swift lists \(migration.name) at position \(index + 1); "
          + "migrations must be numbered 0001, 0002, … in order with no gap or repeat."
      )
    }
    return migrations
  }()

  /// The schema version this build writes.
  static var latestVersion: Int { all.count }

  private static func version(of name: String) -> Int {
    let digits = name.prefix { $0.isASCII && $0.isNumber }
    guard digits.count == 4, name.dropFirst(4).first == "_", name.hasSuffix(".sql"),
      let version = Int(digits)
    else {
      preconditionFailure("Migration file \(name) is not named NNNN_name.sql.")
    }
    return version
  }
}
