import Foundation

/// The first line of a session export: what the file holds and which versions wrote it.
///
/// A session export is newline-delimited JSON: this header, then one line per snapshot and
/// per journal entry in sequence order (a snapshot at sequence N follows entry N). Payloads,
/// states and deltas are embedded as JSON, so `jq` reads them.
///
/// ```
/// {"kind":"header","format":"stackjournal-session","formatVersion":3,"schemaVersion":6,…}
/// {"kind":"snapshot","sequence":0,"version":1,"recordedAt":"…","state":{…},"stacks":[…]}
/// {"kind":"entry","sequence":1,"recordedAt":"…","type":"pushCounterTapped","version":1,…}
/// ```
///
/// From format 3 on, the header's session carries `drawsFrom` (``drawsJournaledFrom``), and an
/// entry line whose reducer drew something carries `"draws": {"environment": …, "values": […]}`,
/// the entry's `EntryDraws` as the journal stores it.
public struct SessionExportHeader: Sendable, Equatable {
  /// The value of the header's `format` field.
  public static let format = "stackjournal-session"
  /// The newest line format this build reads and the one it writes.
  ///
  /// Format 2 may mark stacks and stack changes `"presentation": true` (presented destinations,
  /// see `StackRecord.isPresentation`); a build that reads format 1 only would take them for
  /// stacks, so it refuses the file instead. Format 1 files hold none and are read as before.
  ///
  /// Format 3 carries each entry's draws (what its reducer drew from its dependencies, replayed
  /// to reach the same state) and the session's ``drawsJournaledFrom``; a build that reads
  /// format 2 only would import the entries without their draws, so it refuses the file.
  /// Format 1 and 2 files hold no draws: their sessions are imported with ``drawsJournaledFrom``
  /// past their head.
  public static let currentFormatVersion = 3

  /// The version of the line format.
  public var formatVersion: Int
  /// The schema version of the database the session was exported from.
  public var schemaVersion: Int
  /// When the export was written.
  public var exportedAt: Date
  /// The exported session's identifier.
  public var session: SessionID
  /// When the session was created.
  public var createdAt: Date
  /// The session's metadata as JSON text, if any.
  public var metadata: String?
  /// The session it was forked from, if any.
  public var forkedFrom: SessionID?
  /// The sequence of ``forkedFrom`` it started from.
  public var forkedAt: Int64?
  /// The session's head sequence.
  public var headSequence: Int64
  /// The first sequence whose entry journals what its reducer drew (`SessionInfo`'s
  /// `drawsJournaledFrom`): `drawsFrom` in format 3; the head plus one for a file of an older
  /// format, which holds no draws.
  public var drawsJournaledFrom: Int64
  /// The sequence the journal starts after: the oldest snapshot (0 unless compacted).
  public var baseSequence: Int64
  /// How many entry lines follow.
  public var entryCount: Int64
  /// How many snapshot lines follow.
  public var snapshotCount: Int
  /// The lowest and highest payload versions of the entries and snapshots.
  public var payloadVersions: ClosedRange<Int>?
}

extension SessionExportHeader {
  /// The header as the first line of an export, ending with a newline.
  package var line: String {
    var session = "{\"id\":\(JSONText.literal(self.session.rawValue)),"
    session += "\"createdAt\":\(JSONText.literal(Timestamp.string(from: createdAt))),"
    session += "\"metadata\":\(metadata ?? "null"),"
    session += "\"forkedFrom\":\(forkedFrom.map { JSONText.literal($0.rawValue) } ?? "null"),"
    session += "\"forkedAt\":\(forkedAt.map(String.init) ?? "null"),"
    session += "\"headSequence\":\(headSequence),"
    if formatVersion >= 3 { session += "\"drawsFrom\":\(drawsJournaledFrom)," }
    session += "\"baseSequence\":\(baseSequence)}"
    let versions =
      payloadVersions.map { "{\"min\":\($0.lowerBound),\"max\":\($0.upperBound)}" } ?? "null"
    return "{\"kind\":\"header\",\"format\":\(JSONText.literal(Self.format)),"
      + "\"formatVersion\":\(formatVersion),\"schemaVersion\":\(schemaVersion),"
      + "\"exportedAt\":\(JSONText.literal(Timestamp.string(from: exportedAt))),"
      + "\"session\":\(session),\"payloadVersions\":\(versions),"
      + "\"entries\":\(entryCount),\"snapshots\":\(snapshotCount)}\n"
  }
}

extension SessionExportHeader {
  /// Creates the header of an export written now in this build's format.
  package init(
    schemaVersion: Int, session: SessionID, createdAt: Date, metadata: String?,
    forkedFrom: SessionID?, forkedAt: Int64?, headSequence: Int64, drawsJournaledFrom: Int64,
    baseSequence: Int64, entryCount: Int64, snapshotCount: Int, payloadVersions: ClosedRange<Int>?
  ) {
    self.init(
      formatVersion: Self.currentFormatVersion, schemaVersion: schemaVersion,
      exportedAt: Timestamp.rounded(Date()), session: session, createdAt: createdAt,
      metadata: metadata, forkedFrom: forkedFrom, forkedAt: forkedAt,
      headSequence: headSequence, drawsJournaledFrom: drawsJournaledFrom,
      baseSequence: baseSequence, entryCount: entryCount,
      snapshotCount: snapshotCount, payloadVersions: payloadVersions)
  }
}
