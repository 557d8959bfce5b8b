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
    of journal: SQLiteJournal,
    write: (Data) throws -> Void
  ) throws -> SessionExportHeader {
    let path = journal.path
    let check = try journal.read("checking session \(session) before exporting it") { db in
      try JournalVerifier(maxProblemsPerSession: 1).verifySession(session, of: journal, db)
    }
    if let problem = check.problems.first {
      throw StorageError(
        code: .invalidData,
        message: "Session \(session) does not verify (\(problem.kind): \(problem)), so an export "
          + "of it would be a file `import` refuses; nothing was exported. Run `stackjournal "
          + "verify --db \(path ?? "PATH")` to see every problem.",
        path: path)
    }
    let header = try journal.read("exporting session \(session)") { db in
      try Self.header(session, of: journal, db)
    }
    try write(Data(header.line.utf8))
    var cursor = header.baseSequence - 1
    while cursor < header.headSequence {
      let (snapshots, entries) = try journal.read("exporting session \(session)") { db in
        let entries = try EntryRecord.fetchAll(
          db.cachedStatement(
            sql: "SELECT \(EntryRecord.columns) FROM journal "
              + "WHERE session = ? AND sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?"),
          arguments: [session.rawValue, cursor, header.headSequence, pageSize])
        let last = entries.last?.sequence ?? header.headSequence
        let snapshots = try SnapshotRecord.fetchAll(
          db.cachedStatement(
            sql: "SELECT \(SnapshotRecord.columns) FROM snapshots "
              + "WHERE session = ? AND sequence > ? AND sequence <= ? ORDER BY sequence"),
          arguments: [session.rawValue, cursor, last])
        return (snapshots, entries)
      }
      var pending = snapshots[...]
      func flushSnapshots(through sequence: Int64) throws {
        while let snapshot = pending.first, snapshot.sequence <= sequence {
          pending = pending.dropFirst()
          let line = SessionExportLine.snapshot(
            sequence: snapshot.sequence, version: snapshot.version,
            recordedAt: snapshot.recordedAt, state: snapshot.state, stacks: snapshot.stacks)
          try write(Data(line.text.utf8))
        }
      }
      try flushSnapshots(through: cursor)
      for entry in entries {
        try flushSnapshots(through: entry.sequence - 1)
        let line = SessionExportLine.entry(
          sequence: entry.sequence, recordedAt: entry.recordedAt, type: entry.type,
          version: entry.version, payload: entry.payload, delta: entry.delta)
        try write(Data(line.text.utf8))
        cursor = entry.sequence
      }
      try flushSnapshots(through: entries.isEmpty ? header.headSequence : cursor)
      if entries.count < pageSize { break }
    }
    return header
  }

  /// The header of the session's export, read through `db`.
  private static func header(
    _ session: SessionID,
    of journal: SQLiteJournal,
    _ db: Database
  ) throws -> SessionExportHeader {
    guard
      let record = try SessionRecord.fetchAll(
        db, where: "WHERE s.id = ?", arguments: [session.rawValue]
      ).first
    else { throw journal.unknownSession(session) }
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
      createdAt: try journal.date(record.createdAt, "creation time of session \(session)"),
      metadata: record.metadata,
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
