import Foundation
import GRDB

/// How safe it is to import a session export into a journal.
public struct ImportVerdict: Sendable, Equatable {
  /// The verdict's level.
  public enum Level: String, Sendable, Comparable {
    /// Nothing stands in the way.
    case fine
    /// The import can be done, but something may not work as expected; it needs `force`.
    case risky
    /// The import cannot be done as asked.
    case impossible

    private var rank: Int {
      switch self {
      case .fine: 0
      case .risky: 1
      case .impossible: 2
      }
    }

    /// Orders `fine` < `risky` < `impossible`.
    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
  }

  /// The overall level: the worst of the reasons'.
  public var level: Level
  /// Each finding with its level, worst first.
  public var reasons: [(level: Level, message: String)]

  /// Creates a verdict from its findings.
  public init(_ reasons: [(level: Level, message: String)]) {
    self.reasons = reasons.sorted { $0.level > $1.level }
    self.level = self.reasons.first?.level ?? .fine
  }

  /// Compares levels and messages.
  public static func == (lhs: ImportVerdict, rhs: ImportVerdict) -> Bool {
    lhs.level == rhs.level && lhs.reasons.map(\.message) == rhs.reasons.map(\.message)
  }
}

/// What a journal can tell about itself before an import.
public struct ImportTarget: Sendable {
  /// The target's schema version.
  public var schemaVersion: Int
  /// The highest payload version stored in the target: the version of the app writing it;
  /// `nil` for a journal without sessions.
  public var payloadVersion: Int?
  /// Whether a session with the identifier an import would use exists already.
  public var existingSessions: Set<SessionID>

  /// The target of an import into a file that does not exist yet.
  public static let newFile = ImportTarget(
    schemaVersion: SQLiteJournal.latestSchemaVersion, payloadVersion: nil, existingSessions: [])
}

extension SessionExportFile {
  /// Judges importing this file into `target` as session `id` (the exported identifier when
  /// `nil`), for an app at `payloadVersion` (the target's highest stored version when `nil`).
  public func verdict(
    into target: ImportTarget,
    as id: SessionID?,
    payloadVersion: Int?
  ) -> ImportVerdict {
    var reasons: [(ImportVerdict.Level, String)] = []
    let session = id ?? header.session
    if let problem = session.problem {
      reasons.append(
        (
          .impossible,
          "the session identifier \(session) cannot be used: \(problem); import it under another "
            + "identifier (--as NEW-ID)"
        ))
    }
    if target.existingSessions.contains(session) {
      reasons.append(
        (
          .impossible,
          "a session \(session) already exists in the target; import it under another "
            + "identifier (--as NEW-ID)"
        ))
    }
    if header.schemaVersion > SQLiteJournal.latestSchemaVersion {
      reasons.append(
        (
          .risky,
          "the export comes from schema version \(header.schemaVersion), newer than this build's "
            + "\(SQLiteJournal.latestSchemaVersion); what the newer schema adds is lost"
        ))
    } else if header.schemaVersion > target.schemaVersion {
      reasons.append(
        (
          .risky,
          "the export comes from schema version \(header.schemaVersion), newer than the "
            + "target's \(target.schemaVersion)"
        ))
    }
    if let versions = payloadVersions {
      if let appVersion = payloadVersion ?? target.payloadVersion {
        if versions.upperBound > appVersion {
          reasons.append(
            (
              .risky,
              "the export holds payload version \(versions.upperBound), newer than the target "
                + "app's version \(appVersion): that app refuses to restore the session"
            ))
        } else if versions.lowerBound < appVersion {
          reasons.append(
            (
              .fine,
              "the export holds payload versions \(versions.lowerBound)…\(versions.upperBound), "
                + "older than the target app's \(appVersion): the app's upcasters read them"
            ))
        }
      }
    }
    if let source = header.forkedFrom, !target.existingSessions.contains(source) {
      reasons.append(
        (.fine, "the session was forked from \(source), which the target does not hold"))
    }
    return ImportVerdict(reasons)
  }
}

/// What an import wrote.
public struct ImportResult: Sendable {
  /// The new session's identifier.
  public var session: SessionID
  /// How many entries it holds.
  public var entries: Int64
  /// How many snapshots it holds.
  public var snapshots: Int
  /// Its head sequence.
  public var headSequence: Int64
}

extension SQLiteJournal {
  /// Writes a session as a session export (see ``SessionExportHeader``), one line per call of
  /// `write`, each ending with a newline. Reads a page at a time: memory stays flat.
  ///
  /// The export stops at the head the session had when it started, so an app appending at the
  /// same time does not make it run on.
  ///
  /// A session that does not verify (a gap, a head past its last entry, a payload, state or
  /// delta that is not JSON, a delta that does not apply) is refused before anything is
  /// written, with ``StorageError/Code/invalidData``: its export would be a file that
  /// ``importSession(_:as:)`` refuses.
  public func exportSession(
    _ session: SessionID,
    write: (Data) throws -> Void
  ) throws -> SessionExportHeader {
    let check = try read("checking session \(session) before exporting it") { db in
      try verifySession(session, maxProblems: 1, db)
    }
    if let problem = check.problems.first {
      throw StorageError(
        code: .invalidData,
        message: "Session \(session) does not verify (\(problem.kind): \(problem)), so an export "
          + "of it would be a file `import` refuses; nothing was exported. Run `stackjournal "
          + "verify --db \(path ?? "PATH")` to see every problem.",
        path: path)
    }
    let header = try read("exporting session \(session)") { db -> SessionExportHeader in
      let row = try Row.fetchOne(
        db,
        sql: "SELECT created_at, metadata, forked_from, forked_at, \(Self.headColumn) "
          + "FROM sessions s WHERE id = ?",
        arguments: [session.rawValue])
      guard let row else { throw unknownSession(session) }
      let head: Int64 = row[4]
      let bounds = try Row.fetchOne(
        db,
        sql: "SELECT min(sequence), count(*), min(version), max(version) FROM snapshots "
          + "WHERE session = ? AND sequence <= ?",
        arguments: [session.rawValue, head])!
      guard let base = bounds[0] as Int64? else {
        throw StorageError(
          code: .snapshotMissing,
          message: "Session \(session) has no snapshot to start an export from; run "
            + "`stackjournal verify --db \(path ?? "PATH")`.",
          path: path)
      }
      let entries = try Row.fetchOne(
        db,
        sql: "SELECT count(*), min(version), max(version) FROM journal "
          + "WHERE session = ? AND sequence > ? AND sequence <= ?",
        arguments: [session.rawValue, base, head])!
      let low = [bounds[2] as Int?, entries[1] as Int?].compactMap { $0 }.min()
      let high = [bounds[3] as Int?, entries[2] as Int?].compactMap { $0 }.max()
      return SessionExportHeader(
        formatVersion: SessionExportHeader.currentFormatVersion,
        schemaVersion: schemaVersion,
        exportedAt: Timestamp.rounded(Date()),
        session: session,
        createdAt: try date(row[0], "creation time of session \(session)"),
        metadata: row[1],
        forkedFrom: (row[2] as String?).map(SessionID.init(rawValue:)),
        forkedAt: row[3],
        headSequence: head,
        baseSequence: base,
        entryCount: entries[0],
        snapshotCount: bounds[1],
        payloadVersions: low.flatMap { low in high.map { low...$0 } })
    }
    try write(Data(Self.headerLine(header).utf8))
    var cursor = header.baseSequence - 1
    while cursor < header.headSequence {
      let (snapshots, entries) = try read("exporting session \(session)") { db in
        let entries = try Row.fetchAll(
          db.cachedStatement(
            sql: "SELECT sequence, recorded_at, type, version, payload, delta FROM journal "
              + "WHERE session = ? AND sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?"),
          arguments: [
            session.rawValue, cursor, header.headSequence, Self.inspectionPageSize,
          ])
        let last: Int64 = entries.last?[0] ?? header.headSequence
        let snapshots = try Row.fetchAll(
          db.cachedStatement(
            sql: "SELECT sequence, version, recorded_at, state, stacks FROM snapshots "
              + "WHERE session = ? AND sequence > ? AND sequence <= ? ORDER BY sequence"),
          arguments: [session.rawValue, cursor, last])
        return (snapshots, entries)
      }
      var pending = snapshots[...]
      func flushSnapshots(through sequence: Int64) throws {
        while let snapshot = pending.first, (snapshot[0] as Int64) <= sequence {
          pending = pending.dropFirst()
          var line = "{\"kind\":\"snapshot\",\"sequence\":\(snapshot[0] as Int64),"
          line += "\"version\":\(snapshot[1] as Int),"
          line += "\"recordedAt\":\(JSONText.literal(snapshot[2])),"
          line += "\"state\":\(snapshot[3] as String),\"stacks\":\(snapshot[4] as String)}\n"
          try write(Data(line.utf8))
        }
      }
      try flushSnapshots(through: cursor)
      for entry in entries {
        let sequence: Int64 = entry[0]
        try flushSnapshots(through: sequence - 1)
        var line = "{\"kind\":\"entry\",\"sequence\":\(sequence),"
        line += "\"recordedAt\":\(JSONText.literal(entry[1])),\"type\":\(JSONText.literal(entry[2])),"
        line += "\"version\":\(entry[3] as Int),"
        line += "\"payload\":\(entry[4] as String),\"delta\":\(entry[5] as String)}\n"
        try write(Data(line.utf8))
        cursor = sequence
      }
      try flushSnapshots(through: entries.isEmpty ? header.headSequence : cursor)
      if entries.count < Self.inspectionPageSize { break }
    }
    return header
  }

  /// What this journal tells an import: schema version, payload version, sessions.
  public func importTarget() throws -> ImportTarget {
    try read("reading the import target") { db in
      let version = try Int.fetchOne(
        db,
        sql: "SELECT max(v) FROM (SELECT max(version) AS v FROM journal "
          + "UNION ALL SELECT max(version) FROM snapshots)")
      let sessions = try String.fetchAll(db, sql: "SELECT id FROM sessions")
      return ImportTarget(
        schemaVersion: schemaVersion, payloadVersion: version,
        existingSessions: Set(sessions.map(SessionID.init(rawValue:))))
    }
  }

  /// Imports a checked session export as a new session, all or nothing: the session row, its
  /// snapshots, entries and head stack rows are written in one transaction, which also
  /// re-verifies the new session and rolls back on any problem.
  ///
  /// Judge the file first with ``SessionExportFile/verdict(into:as:payloadVersion:)``; this
  /// call only refuses what it cannot do: a session identifier that is taken, a file that
  /// changed since it was checked.
  public func importSession(
    _ file: SessionExportFile,
    as id: SessionID? = nil
  ) throws -> ImportResult {
    let session = id ?? file.header.session
    try requireWritable("importing session \(session)")
    try session.validate()
    return try write("importing session \(session)") { db in
      let exists =
        try Bool.fetchOne(
          db, sql: "SELECT count(*) > 0 FROM sessions WHERE id = ?",
          arguments: [session.rawValue]) ?? false
      guard !exists else {
        throw StorageError(
          code: .sessionExists,
          message: "A session \(session) already exists in \(path ?? "the journal"); nothing was "
            + "imported. Import it under another identifier.",
          path: path)
      }
      let header = file.header
      try db.execute(
        sql: "INSERT INTO sessions (id, created_at, metadata, head_sequence, forked_from, "
          + "forked_at) VALUES (?, ?, ?, ?, ?, ?)",
        arguments: [
          session.rawValue, Timestamp.string(from: header.createdAt), header.metadata,
          header.headSequence, header.forkedFrom?.rawValue, header.forkedAt,
        ])
      var reader = try TransferReader(path: file.path)
      defer { reader.close() }
      let reread = try reader.header()
      guard reread == header else {
        throw reader.malformed("changed since the file was checked")
      }
      var snapshots = 0
      var entries: Int64 = 0
      var headStacks: [StackRecord] = []
      try reader.forEachRecord(header) { record in
        switch record {
        case .snapshot(let sequence, let version, let recordedAt, let state, let stacks):
          try insertSnapshot(
            db, session: session.rawValue, sequence: sequence, version: version, state: state,
            stacks: stacks, recordedAt: recordedAt)
          if snapshots == 0 {
            headStacks = try JSONDecoder().decode(
              [StackRecord].self, from: Data(stacks.utf8))
          }
          snapshots += 1
        case .entry(let sequence, let recordedAt, let type, let version, let payload, let delta):
          try db.cachedStatement(
            sql: "INSERT INTO journal (session, sequence, recorded_at, type, version, payload, "
              + "delta) VALUES (?, ?, ?, ?, ?, ?, ?)"
          ).execute(arguments: [
            session.rawValue, sequence, recordedAt, type, version, payload, delta,
          ])
          try JSONDecoder().decode(StackDelta.self, from: Data(delta.utf8))
            .apply(to: &headStacks)
          entries += 1
        }
      }
      try StackRows.insert(headStacks, db, session: session.rawValue)
      let check = try verifySession(session, maxProblems: 1, db)
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
  }

  /// Imports a checked session export into a new journal at `path`, which must not exist.
  ///
  /// The journal is built under a temporary name beside `path` (`.NAME.import-PID-…`, created
  /// readable by its owner only), closed, flushed, then linked to `path` only if nothing is
  /// there (`link` never replaces a file). On any failure, and after the link, the temporary
  /// files, which this process created, are removed and nothing else: a journal an app created
  /// at `path` meanwhile is left alone. Temporary files of an import that was killed are removed
  /// by the next import or writable open of `path`.
  public static func importSessionIntoNewJournal(
    _ file: SessionExportFile,
    as id: SessionID? = nil,
    at path: String,
    options: Options = .init()
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
      result = try journal.importSession(file, as: id)
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

  static func headerLine(_ header: SessionExportHeader) -> String {
    var session = "{\"id\":\(JSONText.literal(header.session.rawValue)),"
    session += "\"createdAt\":\(JSONText.literal(Timestamp.string(from: header.createdAt))),"
    session += "\"metadata\":\(header.metadata ?? "null"),"
    session += "\"forkedFrom\":\(header.forkedFrom.map { JSONText.literal($0.rawValue) } ?? "null"),"
    session += "\"forkedAt\":\(header.forkedAt.map(String.init) ?? "null"),"
    session += "\"headSequence\":\(header.headSequence),"
    session += "\"baseSequence\":\(header.baseSequence)}"
    let versions =
      header.payloadVersions.map { "{\"min\":\($0.lowerBound),\"max\":\($0.upperBound)}" }
      ?? "null"
    return "{\"kind\":\"header\",\"format\":\(JSONText.literal(SessionExportHeader.format)),"
      + "\"formatVersion\":\(header.formatVersion),\"schemaVersion\":\(header.schemaVersion),"
      + "\"exportedAt\":\(JSONText.literal(Timestamp.string(from: header.exportedAt))),"
      + "\"session\":\(session),\"payloadVersions\":\(versions),"
      + "\"entries\":\(header.entryCount),\"snapshots\":\(header.snapshotCount)}\n"
  }

}
