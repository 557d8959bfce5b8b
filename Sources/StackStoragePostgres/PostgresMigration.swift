import StackJournalPostgresMigrations
import StackJournalCore

/// One embedded PostgreSQL migration: `NNNN_name.sql` brings the schema to version `NNNN`.
struct PostgresMigration: Sendable {
  var version: Int
  var name: String
  var sql: String
  /// The SHA-256 of the file's bytes, in hexadecimal.
  var checksum: String

  /// Every embedded migration, oldest first; traps when the list in
  /// `Migrations/postgres/Migrations.swift` is misnumbered.
  static let all: [PostgresMigration] = {
    EmbeddedPostgresMigrations.files.enumerated().map { index, file in
      let digits = file.name.prefix { $0.isASCII && $0.isNumber }
      precondition(
        digits.count == 4 && Int(digits) == index + 1 && file.name.hasSuffix(".sql"),
        "Migrations/postgres/Migrations.swift lists \(file.name) at position \(index + 1); "
          + "migrations must be named NNNN_name.sql and numbered 0001, 0002, … with no gap.")
      return PostgresMigration(
        version: index + 1, name: file.name, sql: String(decoding: file.bytes, as: UTF8.self),
        checksum: SHA256.hex(file.bytes))
    }
  }()

  static var latestVersion: Int { all.count }
}
