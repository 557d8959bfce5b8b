import Foundation

/// A session as listed by a journal: identity, metadata and activity.
public struct SessionInfo: Sendable, Codable {
  /// The session's identifier.
  public var id: SessionID
  /// When the session was created, to the millisecond.
  public var createdAt: Date
  /// The app's metadata for the session, as JSON.
  public var metadata: Data?
  /// How many journal entries the session holds.
  public var entryCount: Int
  /// The sequence of the last entry; 0 before the first one.
  public var headSequence: Int64
  /// When the first entry was recorded; `nil` before the first one.
  public var firstActivity: Date?
  /// When the last entry was recorded; `nil` before the first one.
  public var lastActivity: Date?
  /// The session this one was forked from, if any.
  public var forkedFrom: SessionID?
  /// The sequence of ``forkedFrom`` this session started from.
  public var forkedAt: Int64?

  /// Creates session information.
  public init(
    id: SessionID,
    createdAt: Date,
    metadata: Data? = nil,
    entryCount: Int = 0,
    headSequence: Int64 = 0,
    firstActivity: Date? = nil,
    lastActivity: Date? = nil,
    forkedFrom: SessionID? = nil,
    forkedAt: Int64? = nil
  ) {
    self.id = id
    self.createdAt = createdAt
    self.metadata = metadata
    self.entryCount = entryCount
    self.headSequence = headSequence
    self.firstActivity = firstActivity
    self.lastActivity = lastActivity
    self.forkedFrom = forkedFrom
    self.forkedAt = forkedAt
  }
}
