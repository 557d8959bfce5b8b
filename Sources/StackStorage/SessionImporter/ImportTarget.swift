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

  /// Creates a target from what a journal tells.
  public init(schemaVersion: Int, payloadVersion: Int?, existingSessions: Set<SessionID>) {
    self.schemaVersion = schemaVersion
    self.payloadVersion = payloadVersion
    self.existingSessions = existingSessions
  }

  /// The target of an import into a file that does not exist yet.
  public static let newFile = ImportTarget(
    schemaVersion: SQLiteJournal.latestSchemaVersion, payloadVersion: nil, existingSessions: [])
}
