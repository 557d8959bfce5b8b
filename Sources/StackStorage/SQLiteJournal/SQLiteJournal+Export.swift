import Foundation
import GRDB

extension SQLiteJournal: SessionExportSource {
  package var exportErrorPath: String? { path }

  package func exportCheck(_ session: SessionID) throws -> SessionVerification {
    try read("checking session \(session) before exporting it") { db in
      try SQLiteVerification.verifySession(session, db, stored, maxProblems: 1)
    }
  }

  package func exportHeader(_ session: SessionID) throws -> SessionExportHeader {
    try read("exporting session \(session)") { db in
      try SessionExporter.header(db, session, schemaVersion: schemaVersion, stored)
    }
  }

  package func exportPage(_ session: SessionID, after: Int64, through: Int64, limit: Int) throws
    -> (snapshots: [StoredSnapshotRow], entries: [JournalRow])
  {
    try read("exporting session \(session)") { db in
      try SessionExporter.page(db, session, after: after, through: through, limit: limit)
    }
  }
}
