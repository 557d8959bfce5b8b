import GRDB

extension SQLiteJournal {
  /// What this journal tells an import, read in one read transaction (see
  /// ``SessionImporter/target(_:)``).
  func importTarget() throws -> ImportTarget {
    try read("reading the import target") { db in
      try SessionImporter.target(db, schemaVersion: schemaVersion)
    }
  }

  /// Imports a checked session export as the session `session`, all or nothing, in one write
  /// transaction (see ``SessionImporter/importSession(_:as:into:)``).
  func importSession(_ file: SessionExportFile, as session: SessionID) throws -> ImportResult {
    try requireWritable("importing session \(session)")
    try session.validate()
    return try write("importing session \(session)", forgetting: session) { db in
      try SessionImporter.importSession(db, file, as: session, stored)
    }
  }
}
