import Foundation

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
    if let maximum = target.maximumSequence, header.headSequence > maximum {
      reasons.append(
        (
          .impossible,
          "the session's head sequence \(header.headSequence) (line 1) is above "
            + "\(maximum), the greatest sequence a session of the target holds"
        ))
    }
    if let range = target.payloadVersionRange, let versions = payloadVersions,
      !range.contains(versions.lowerBound) || !range.contains(versions.upperBound)
    {
      reasons.append(
        (
          .impossible,
          "the export holds payload versions \(versions.lowerBound)…\(versions.upperBound), "
            + "outside \(range.lowerBound)…\(range.upperBound), the versions the target holds"
        ))
    }
    if !target.comparesSchemaVersions {
      // The versions of two backends' schemas do not compare; the line format is the same.
    } else if header.schemaVersion > target.newestKnownSchemaVersion {
      reasons.append(
        (
          .risky,
          "the export comes from schema version \(header.schemaVersion), newer than this build's "
            + "\(target.newestKnownSchemaVersion); what the newer schema adds is lost"
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
    let createdAt = Timestamp.string(from: header.createdAt)
    if let latest = latestEntry, createdAt > latest.time {
      // The library records such a session when the clock goes back after its creation, so
      // the file is not malformed; `show --at-time` and the page refuse times before creation.
      reasons.append(
        (
          .risky,
          "line 1 gives the session's createdAt as \(createdAt), later than every entry (the "
            + "latest, line \(latest.line), was recorded at \(latest.time)): a time before the "
            + "session's creation is refused, so no entry can be shown by its time"
        ))
    }
    if let source = header.forkedFrom, !target.existingSessions.contains(source) {
      reasons.append(
        (.fine, "the session was forked from \(source), which the target does not hold"))
    }
    return ImportVerdict(reasons)
  }
}
