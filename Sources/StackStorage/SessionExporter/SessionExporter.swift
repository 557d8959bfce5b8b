import Foundation
import GRDB

/// Writes a session of a journal as a session export (see ``SessionExportHeader``).
///
/// ```swift
/// let handle = try FileHandle(forWritingTo: url)
/// let header = try SessionExporter().export("user-42", of: journal) {
///   try handle.write(contentsOf: $0)
/// }
/// ```
public struct SessionExporter: Sendable {
  /// How many entries are read per page.
  public var pageSize: Int

  /// Creates an exporter that reads `pageSize` entries at a time.
  public init(pageSize: Int = 512) {
    self.pageSize = max(1, pageSize)
  }

  /// Writes the session, one line per call of `write`, each ending with a newline. Reads a page
  /// at a time, each in its own read transaction: memory stays flat.
  ///
  /// The export stops at the head the session had when it started, so an app appending at the
  /// same time does not make it run on.
  ///
  /// A session that does not verify (a gap, a head past its last entry, a payload, state or
  /// delta that is not JSON, a delta that does not apply) is refused before anything is
  /// written, with ``StorageError/Code/invalidData``: its export would be a file that
  /// ``SessionImporter/importSession(_:as:into:)`` refuses.
  public func export(
    _ session: SessionID,
    of journal: any InspectableJournal,
    write: (Data) throws -> Void
  ) throws -> SessionExportHeader {
    guard let source = journal as? any SessionExportSource else {
      throw StorageError(
        code: .invalidData,
        message: "\(type(of: journal)) cannot export sessions; nothing was exported.")
    }
    if let problem = try source.exportCheck(session).problems.first {
      throw StorageError(
        code: .invalidData,
        message: "Session \(session) does not verify (\(problem.kind): \(problem)), so an export "
          + "of it would be a file `import` refuses; nothing was exported. Run `stackjournal "
          + "verify --db \(journal.locationDescription)` to see every problem.",
        path: journal is SQLiteJournal ? journal.locationDescription : nil)
    }
    let header = try source.exportHeader(session)
    try write(Data(header.line.utf8))
    var cursor = header.baseSequence - 1
    while cursor < header.headSequence {
      let (snapshots, entries) = try source.exportPage(
        session, after: cursor, through: header.headSequence, limit: pageSize)
      var pending = snapshots[...]
      func flushSnapshots(through sequence: Int64) throws {
        while let snapshot = pending.first, snapshot.sequence <= sequence {
          pending = pending.dropFirst()
          try write(Data(snapshot.line.text.utf8))
        }
      }
      try flushSnapshots(through: cursor)
      for entry in entries {
        try flushSnapshots(through: entry.sequence - 1)
        try write(Data(entry.line.text.utf8))
        cursor = entry.sequence
      }
      try flushSnapshots(through: entries.isEmpty ? header.headSequence : cursor)
      if entries.count < pageSize { break }
    }
    return header
  }
}

/// What ``SessionExporter`` reads from a backend, as stored.
package protocol SessionExportSource {
  /// The session's rows checked as ``JournalVerifier`` checks them (one problem is enough).
  func exportCheck(_ session: SessionID) throws -> SessionVerification
  /// The export's header: the session, its head, its oldest snapshot, its row counts and
  /// payload versions.
  func exportHeader(_ session: SessionID) throws -> SessionExportHeader
  /// The entries after `after` through `through`, at most `limit`, and the snapshots after
  /// `after` through the last of those entries (through `through` when there is none).
  func exportPage(_ session: SessionID, after: Int64, through: Int64, limit: Int) throws
    -> (snapshots: [ExportRow], entries: [ExportRow])
}

/// A stored row as an export line.
package struct ExportRow: Sendable {
  package var sequence: Int64
  package var line: SessionExportLine

  package init(sequence: Int64, line: SessionExportLine) {
    self.sequence = sequence
    self.line = line
  }
}

extension SQLiteJournal: SessionExportSource {
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
      formatVersion: SessionExportHeader.currentFormatVersion,
      schemaVersion: journal.schemaVersion,
      exportedAt: Timestamp.rounded(Date()),
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
