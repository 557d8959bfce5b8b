import Foundation

/// One recorded action of a session, as read back from the journal.
public struct JournalEntry: Sendable {
  /// The session the entry belongs to.
  public var session: SessionID
  /// The entry's number in its session: 1, 2, 3, … with no gaps.
  public var sequence: Int64
  /// When the action was recorded, to the millisecond.
  public var recordedAt: Date
  /// The action's case path, e.g. `path.element.counter.incrementButtonTapped`.
  public var type: String
  /// The payload's version; the app's current version once upcasters ran.
  public var version: Int
  /// The action as JSON, upcast to the app's current version when one is set.
  public var payload: Data
  /// What the action did to each stack.
  public var delta: StackDelta

  /// Creates an entry.
  public init(
    session: SessionID,
    sequence: Int64,
    recordedAt: Date,
    type: String,
    version: Int,
    payload: Data,
    delta: StackDelta
  ) {
    self.session = session
    self.sequence = sequence
    self.recordedAt = recordedAt
    self.type = type
    self.version = version
    self.payload = payload
    self.delta = delta
  }
}
