import Foundation

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
  /// same time does not make it run on. Rows another process removes meanwhile (a `compact` or
  /// a `prune` committing between two pages) would leave a file whose header announces rows it
  /// lacks, which `import` refuses: an entry missing after the last one written, or fewer rows
  /// than the header counts, throws ``StorageError/Code/changedDuringRead`` instead, and what
  /// was written is not an export.
  ///
  /// A session that does not verify (a gap, a head past its last entry, a payload, state or
  /// delta that is not JSON, a delta that does not apply) is refused before anything is
  /// written, with ``StorageError/Code/invalidData``: its export would be a file that
  /// `SessionImporter.importSession(_:as:into:)` refuses.
  public func export(
    _ session: SessionID,
    of journal: any InspectableJournal,
    write: (Data) throws -> Void
  ) async throws -> SessionExportHeader {
    guard let source = journal as? any SessionExportSource else {
      throw StorageError(
        code: .invalidData,
        message: "\(type(of: journal)) cannot export sessions; nothing was exported.")
    }
    if let problem = try await source.exportCheck(session).problems.first {
      throw StorageError(
        code: .invalidData,
        message: "Session \(session) does not verify (\(problem.kind): \(problem)), so an export "
          + "of it would be a file `import` refuses; nothing was exported. Run `stackjournal "
          + "verify --db \(journal.locationDescription)` to see every problem.",
        path: source.exportErrorPath)
    }
    let header = try await source.exportHeader(session)
    try write(Data(header.line.utf8))
    var cursor = header.baseSequence - 1
    var written = (entries: 0, snapshots: 0)
    while cursor < header.headSequence {
      let (snapshots, entries) = try await source.exportPage(
        session, after: cursor, through: header.headSequence, limit: pageSize)
      var pending = snapshots[...]
      func flushSnapshots(through sequence: Int64) throws {
        while let snapshot = pending.first, snapshot.sequence <= sequence {
          pending = pending.dropFirst()
          try write(Data(SessionExportLine.snapshot(snapshot).text.utf8))
          written.snapshots += 1
        }
      }
      try flushSnapshots(through: cursor)
      for entry in entries {
        let next = max(cursor, header.baseSequence) + 1
        if entry.sequence > next {
          throw changed(session, source, "entries \(next)…\(entry.sequence - 1) were removed")
        }
        try flushSnapshots(through: entry.sequence - 1)
        try write(Data(SessionExportLine.entry(entry).text.utf8))
        if entry.sequence > header.baseSequence { written.entries += 1 }
        cursor = entry.sequence
      }
      try flushSnapshots(through: entries.isEmpty ? header.headSequence : cursor)
      if entries.count < pageSize { break }
    }
    if written.entries != header.entryCount || written.snapshots != header.snapshotCount {
      throw changed(
        session, source,
        "\(written.entries) of its \(header.entryCount) entries and \(written.snapshots) of its "
          + "\(header.snapshotCount) snapshots were left")
    }
    return header
  }

  /// The error of an export whose session lost rows while it was read.
  private func changed(
    _ session: SessionID, _ source: any SessionExportSource, _ what: String
  ) -> StorageError {
    StorageError(
      code: .changedDuringRead,
      message: "Session \(session) changed while it was exported: \(what), by a `compact` or "
        + "`prune` another process committed meanwhile. What was written is not a complete "
        + "export; export the session again.",
      path: source.exportErrorPath)
  }
}

/// What ``SessionExporter`` reads from a backend, as stored.
package protocol SessionExportSource {
  /// The file path errors name, when the journal is a file.
  var exportErrorPath: String? { get }

  /// The session's rows checked as
  /// ``InspectableJournal/verifyStorage(session:maxProblemsPerSession:)`` checks them (one
  /// problem is enough).
  func exportCheck(_ session: SessionID) async throws -> SessionVerification
  /// The export's header: the session, its head, its oldest snapshot, its row counts and
  /// payload versions.
  func exportHeader(_ session: SessionID) async throws -> SessionExportHeader
  /// The entries after `after` through `through`, at most `limit`, and the snapshots after
  /// `after` through the last of those entries (through `through` when there is none).
  func exportPage(_ session: SessionID, after: Int64, through: Int64, limit: Int) async throws
    -> (snapshots: [StoredSnapshotRow], entries: [JournalRow])
}
