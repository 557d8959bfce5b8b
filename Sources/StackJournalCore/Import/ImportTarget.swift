import Foundation

/// What a journal can tell about itself before an import.
public struct ImportTarget: Sendable {
  /// The target's schema version.
  public var schemaVersion: Int
  /// The highest payload version stored in the target: the version of the app writing it;
  /// `nil` for a journal without sessions.
  public var payloadVersion: Int?
  /// Whether a session with the identifier an import would use exists already.
  public var existingSessions: Set<SessionID>

  /// Whether an export's schema version (an SQLite file's, as exports record it) can be
  /// compared with ``schemaVersion``: `false` for a PostgreSQL journal, whose schema versions
  /// count its own migrations. The export format is the same for both.
  public var comparesSchemaVersions: Bool

  /// The newest schema version the engine that writes the target knows: an export from a newer
  /// one holds what this build cannot keep.
  public var newestKnownSchemaVersion: Int

  /// The greatest sequence a session of the target holds (an SQLite journal's keys hold
  /// 4,294,967,295), or `nil` when the target has no bound below `Int64.max`.
  public var maximumSequence: Int64?

  /// The payload versions the target's `version` columns hold (a PostgreSQL journal's are
  /// `integer`, 32 bits), or `nil` when any `Int` fits.
  public var payloadVersionRange: ClosedRange<Int>?

  /// Creates a target from what a journal tells; `newestKnownSchemaVersion` is `schemaVersion`
  /// when not given.
  public init(
    schemaVersion: Int, payloadVersion: Int?, existingSessions: Set<SessionID>,
    comparesSchemaVersions: Bool = true, newestKnownSchemaVersion: Int? = nil,
    maximumSequence: Int64? = nil, payloadVersionRange: ClosedRange<Int>? = nil
  ) {
    self.maximumSequence = maximumSequence
    self.payloadVersionRange = payloadVersionRange
    self.schemaVersion = schemaVersion
    self.payloadVersion = payloadVersion
    self.existingSessions = existingSessions
    self.comparesSchemaVersions = comparesSchemaVersions
    self.newestKnownSchemaVersion = newestKnownSchemaVersion ?? schemaVersion
  }
}
