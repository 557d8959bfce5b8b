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
  /// The first sequence whose entry journals what its reducer drew (``JournalEntry/draws``).
  ///
  /// Entries before it were written before the journal kept draws: they replay as they always
  /// did, with the replaying process's own dependencies. 1 for every session created since.
  public var drawsJournaledFrom: Int64

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
    forkedAt: Int64? = nil,
    drawsJournaledFrom: Int64 = 1
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
    self.drawsJournaledFrom = drawsJournaledFrom
  }

  private enum CodingKeys: String, CodingKey {
    case id, createdAt, metadata, entryCount, headSequence, firstActivity, lastActivity
    case forkedFrom, forkedAt, drawsJournaledFrom
  }

  /// Decodes session information; a document written before draws were journaled holds no
  /// ``drawsJournaledFrom`` and means none of its entries journaled any.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(SessionID.self, forKey: .id),
      createdAt: try container.decode(Date.self, forKey: .createdAt),
      metadata: try container.decodeIfPresent(Data.self, forKey: .metadata),
      entryCount: try container.decode(Int.self, forKey: .entryCount),
      headSequence: try container.decode(Int64.self, forKey: .headSequence),
      firstActivity: try container.decodeIfPresent(Date.self, forKey: .firstActivity),
      lastActivity: try container.decodeIfPresent(Date.self, forKey: .lastActivity),
      forkedFrom: try container.decodeIfPresent(SessionID.self, forKey: .forkedFrom),
      forkedAt: try container.decodeIfPresent(Int64.self, forKey: .forkedAt)
    )
    let headSequence = self.headSequence
    drawsJournaledFrom =
      try container.decodeIfPresent(Int64.self, forKey: .drawsJournaledFrom) ?? headSequence + 1
  }
}
