import Foundation
import GRDB

/// What ``SessionExporter`` reads from an SQLite journal, as functions over a connection inside
/// a read transaction that ``SQLiteJournal`` opens (see its ``SessionExportSource``
/// conformance).
extension SessionExporter {
  /// The header of the session's export, read through `db`; `schemaVersion` is the file's.
  static func header(
    _ db: Database,
    _ session: SessionID,
    schemaVersion: Int,
    _ stored: StoredValues
  ) throws -> SessionExportHeader {
    guard let record = try SessionRows.records(db, id: session).first else {
      throw stored.unknownSession(session)
    }
    let head = record.headSequence
    let snapshots = try SnapshotRows.versionSpan(db, session: session, through: head)
    guard let snapshots, let base = snapshots.first else {
      throw StorageError(
        code: .snapshotMissing,
        message: "Session \(session) has no snapshot to start an export from; run "
          + "`stackjournal verify --db \(stored.path ?? "PATH")`.",
        path: stored.path)
    }
    let entries = try JournalRows.versionSpan(db, session: session, after: base, through: head)
    let low = [snapshots.low, entries?.low].compactMap { $0 }.min()
    let high = [snapshots.high, entries?.high].compactMap { $0 }.max()
    return SessionExportHeader(
      schemaVersion: schemaVersion,
      session: session,
      createdAt: try stored.date(record.createdAt, "creation time of session \(session)"),
      metadata: try record.checkedMetadata(stored),
      forkedFrom: record.forkedFrom.map(SessionID.init(rawValue:)),
      forkedAt: record.forkedAt,
      headSequence: head,
      drawsJournaledFrom: record.drawsFrom,
      baseSequence: base,
      entryCount: entries?.count ?? 0,
      snapshotCount: Int(snapshots.count),
      payloadVersions: low.flatMap { low in high.map { low...$0 } })
  }

  /// The entries after `after` through `through`, at most `limit`, and the snapshots after
  /// `after` through the last of those entries (through `through` when there is none), read
  /// through `db`.
  static func page(
    _ db: Database, _ session: SessionID, after: Int64, through: Int64, limit: Int
  ) throws -> (snapshots: [StoredSnapshotRow], entries: [JournalRow]) {
    let entries = try JournalRows.page(
      db, session: session, after: after, through: through, limit: limit)
    let last = entries.last?.sequence ?? through
    let snapshots = try SnapshotRows.page(db, session: session, after: after, through: last)
    return (snapshots, entries)
  }
}

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
