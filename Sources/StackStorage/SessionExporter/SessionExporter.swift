import Foundation
import GRDB

extension SQLiteJournal: SessionExportSource {
  package var exportErrorPath: String? { path }

  package func exportCheck(_ session: SessionID) throws -> SessionVerification {
    try read("checking session \(session) before exporting it") { db in
      try JournalVerifier(maxProblemsPerSession: 1).verifySession(session, of: self, db)
    }
  }

  package func exportHeader(_ session: SessionID) throws -> SessionExportHeader {
    try read("exporting session \(session)") { db in
      try SessionExporter.header(session, of: self, db)
    }
  }

  package func exportPage(_ session: SessionID, after: Int64, through: Int64, limit: Int) throws
    -> (snapshots: [ExportRow], entries: [ExportRow])
  {
    try read("exporting session \(session)") { db in
      let entries = try EntryRecord.fetchAll(
        db.cachedStatement(
          sql: "SELECT \(EntryRecord.columns) FROM journal "
            + "WHERE session = ? AND sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?"),
        arguments: [session.rawValue, after, through, limit])
      let last = entries.last?.sequence ?? through
      let snapshots = try SnapshotRecord.fetchAll(
        db.cachedStatement(
          sql: "SELECT \(SnapshotRecord.columns) FROM snapshots "
            + "WHERE session = ? AND sequence > ? AND sequence <= ? ORDER BY sequence"),
        arguments: [session.rawValue, after, last])
      return (
        snapshots.map {
          ExportRow(
            sequence: $0.sequence,
            line: .snapshot(
              sequence: $0.sequence, version: $0.version, recordedAt: $0.recordedAt,
              state: $0.state, stacks: $0.stacks))
        },
        entries.map {
          ExportRow(
            sequence: $0.sequence,
            line: .entry(
              sequence: $0.sequence, recordedAt: $0.recordedAt, type: $0.type,
              version: $0.version, payload: $0.payload, delta: $0.delta))
        }
      )
    }
  }
}

extension SessionExporter {
  /// The header of the session's export, read through `db`.
  fileprivate static func header(
    _ session: SessionID,
    of journal: SQLiteJournal,
    _ db: Database
  ) throws -> SessionExportHeader {
    guard
      let record = try SessionRecord.fetchAll(
        db, where: "WHERE s.id = ?", arguments: [session.rawValue]
      ).first
    else { throw journal.stored.unknownSession(session) }
    let head = record.headSequence
    let snapshots = try VersionSpan.fetchOne(
      db,
      sql: "SELECT min(sequence) AS first, count(*) AS count, min(version) AS low, "
        + "max(version) AS high FROM snapshots WHERE session = ? AND sequence <= ?",
      arguments: [session.rawValue, head])
    guard let snapshots, let base = snapshots.first else {
      throw StorageError(
        code: .snapshotMissing,
        message: "Session \(session) has no snapshot to start an export from; run "
          + "`stackjournal verify --db \(journal.path ?? "PATH")`.",
        path: journal.path)
    }
    let entries = try VersionSpan.fetchOne(
      db,
      sql: "SELECT min(sequence) AS first, count(*) AS count, min(version) AS low, "
        + "max(version) AS high FROM journal WHERE session = ? AND sequence > ? AND sequence <= ?",
      arguments: [session.rawValue, base, head])
    let low = [snapshots.low, entries?.low].compactMap { $0 }.min()
    let high = [snapshots.high, entries?.high].compactMap { $0 }.max()
    return SessionExportHeader(
      schemaVersion: journal.schemaVersion,
      session: session,
      createdAt: try journal.stored.date(record.createdAt, "creation time of session \(session)"),
      metadata: try record.checkedMetadata(journal.stored),
      forkedFrom: record.forkedFrom.map(SessionID.init(rawValue:)),
      forkedAt: record.forkedAt,
      headSequence: head,
      baseSequence: base,
      entryCount: entries?.count ?? 0,
      snapshotCount: Int(snapshots.count),
      payloadVersions: low.flatMap { low in high.map { low...$0 } })
  }
}

/// How many rows of a session a table holds in a range, from which sequence, in which payload
/// versions.
private struct VersionSpan: StoredRowRecord {
  var first: Int64?
  var count: Int64
  var low: Int?
  var high: Int?
}
