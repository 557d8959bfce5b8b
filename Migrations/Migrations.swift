// Lists the SQL files of this folder, embedded in the binary (see Package.swift).
enum EmbeddedMigrations {
  static let files: [(name: String, bytes: [UInt8])] = [
    ("0001_initial.sql", PackageResources._001_initial_sql),
  ]
}
