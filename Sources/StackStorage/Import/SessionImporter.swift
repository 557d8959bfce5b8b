import Foundation
import GRDB

/// Imports a checked session export (`SessionExportFile`) into a journal as a new session.
///
/// ```swift
/// let file = try SessionExportFile.read(path: "user-42.jsonl")
/// let importer = SessionImporter()
/// let verdict = file.verdict(into: try importer.target(journal), as: nil, payloadVersion: nil)
/// if verdict.level == .fine { _ = try importer.importSession(file, into: journal) }
/// ```
///
/// The import reads and writes through a connection inside a transaction that
/// ``SQLiteJournal`` opens.
public struct SessionImporter: Sendable {
  /// Creates an importer.
  public init() {}

  /// What `journal` tells an import: schema version, payload version, sessions.
  public func target(_ journal: SQLiteJournal) throws -> ImportTarget {
    try journal.importTarget()
  }

  /// Imports a checked session export as a new session, all or nothing: the session row, its
  /// snapshots, entries and head stack rows are written in one transaction, which also
  /// re-verifies the new session and rolls back on any problem.
  ///
  /// Judge the file first with `SessionExportFile.verdict(into:as:payloadVersion:)`; this
  /// call only refuses what it cannot do: a session identifier that is taken, a file that
  /// changed since it was checked.
  public func importSession(
    _ file: SessionExportFile,
    as id: SessionID? = nil,
    into journal: SQLiteJournal
  ) throws -> ImportResult {
    try journal.importSession(file, as: id ?? file.header.session)
  }

  /// What the journal `db` reads from tells an import; `schemaVersion` is its file's.
  static func target(_ db: Database, schemaVersion: Int) throws -> ImportTarget {
    let version = [try JournalRows.maxVersion(db), try SnapshotRows.maxVersion(db)]
      .compactMap { $0 }.max()
    return ImportTarget(
      schemaVersion: schemaVersion, payloadVersion: version,
      existingSessions: Set(try SessionRows.ids(db)),
      newestKnownSchemaVersion: SQLiteJournal.latestSchemaVersion,
      maximumSequence: SessionKeys.maximumSequence)
  }

  /// Imports `file` as the session `session` through `db`, inside the caller's write
  /// transaction, which must be rolled back when this throws: writes the session row, its
  /// snapshots, entries and head stack rows, then verifies the new session.
  static func importSession(
    _ db: Database, _ file: SessionExportFile, as session: SessionID, _ stored: StoredValues
  ) throws -> ImportResult {
    let path = stored.path
    guard try !SessionRows.exists(db, session) else {
      throw StorageError(
        code: .sessionExists,
        message: "A session \(session) already exists in \(path ?? "the journal"); nothing was "
          + "imported. Import it under another identifier.",
        path: path)
    }
    let header = file.header
    let number = try SessionRows.insert(
      db, session, createdAt: Timestamp.string(from: header.createdAt),
      metadata: header.metadata, headSequence: header.headSequence,
      forkedFrom: header.forkedFrom, forkedAt: header.forkedAt,
      drawsFrom: header.drawsJournaledFrom, path: path)
    var snapshots = 0
    var entries: Int64 = 0
    var headStacks: [StackRecord]
    // In a scope of its own, so the reader and its line buffer are gone before the check.
    do {
      var reader = try SessionExportReader(path: file.path)
      defer { reader.close() }
      let reread = try reader.header()
      guard reread == header else {
        throw reader.malformed("changed since the file was checked")
      }
      var latestAt: String?
      headStacks = try reader.forEachLine(header) { line in
        switch line {
        case .snapshot(let row):
          try SnapshotRows.insert(
            db, session: session.rawValue, sequence: row.sequence, version: row.version,
            state: row.state, stacks: row.stacks, recordedAt: row.recordedAt)
          snapshots += 1
        case .entry(let row):
          let latest = Timestamp.latest(row.recordedAt, after: latestAt)
          latestAt = latest
          try JournalRows.insert(
            db, session: session.rawValue, number: number, sequence: row.sequence,
            recordedAt: row.recordedAt, latestAt: latest, type: row.type, version: row.version,
            payload: row.payload, delta: row.delta, draws: row.draws, path: path)
          entries += 1
        }
      }
    }
    try StackRows.insert(headStacks, db, session: session.rawValue)
    headStacks = []
    let check = try SQLiteVerification.verifySession(session, db, stored, maxProblems: 1)
    if let problem = check.problems.first {
      throw StorageError(
        code: .inconsistentDelta,
        message: "The imported session \(session) does not verify (\(problem)); nothing was "
          + "imported.",
        path: path)
    }
    return ImportResult(
      session: session, entries: entries, snapshots: snapshots,
      headSequence: header.headSequence)
  }

  /// Imports a checked session export into a new journal at `path`, which must not exist.
  ///
  /// The journal is built under a temporary name beside `path` (`.NAME.import-PID-…`, created
  /// readable by its owner only), closed, flushed, then linked to `path` only if nothing is
  /// there (`link` never replaces a file). On any failure, and after the link, the temporary
  /// files, which this process created, are removed and nothing else: a journal an app created
  /// at `path` meanwhile is left alone. Temporary files of an import that was killed are removed
  /// by the next import or writable open of `path`.
  public func importSessionIntoNewJournal(
    _ file: SessionExportFile,
    as id: SessionID? = nil,
    at path: String,
    options: SQLiteJournal.Options = .init()
  ) throws -> ImportResult {
    try DatabaseFile.checkPath(path)
    JournalFileCreation.removeLeftovers(of: path)
    let temporary = JournalFileCreation.temporaryPath(for: path, purpose: .import)
    defer { JournalFileCreation.removeFiles(of: temporary) }
    let result: ImportResult
    do {
      // Created complete and readable by its owner only (see JournalFileCreation); closing it
      // at the end of this scope checkpoints its log into the file.
      let journal = try SQLiteJournal(path: temporary, options: options)
      result = try importSession(file, as: id, into: journal)
    }
    if let log = DatabaseFile.status(temporary + "-wal"), log.st_size > 0 {
      throw StorageError(
        code: .io,
        message: "The new journal's write-ahead log was not folded into it when it closed, so "
          + "it was not put at \(path); nothing was imported. Run the import again.",
        path: path)
    }
    try JournalFileCreation.synchronize(temporary)
    guard link(temporary, path) == 0 else {
      let code = errno
      if code == EEXIST {
        throw StorageError(
          code: .io,
          message: "A file appeared at \(path) while the import ran; it was left as it is and "
            + "nothing was imported. Run the import again to import into that journal.",
          path: path)
      }
      throw StorageError(
        code: code == ENOSPC ? .diskFull : .io,
        message: "Cannot create \(path): \(String(cString: strerror(code))). Nothing was "
          + "imported.",
        path: path)
    }
    JournalFileCreation.removeFiles(of: temporary)
    try JournalFileCreation.synchronize(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    return result
  }
}

extension ImportTarget {
  /// The target of an import into an SQLite file that does not exist yet.
  public static var newFile: ImportTarget {
    ImportTarget(
      schemaVersion: SQLiteJournal.latestSchemaVersion, payloadVersion: nil, existingSessions: [],
      maximumSequence: SessionKeys.maximumSequence)
  }
}

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
