import Foundation

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

  /// Creates a result.
  package init(session: SessionID, entries: Int64, snapshots: Int, headSequence: Int64) {
    self.session = session
    self.entries = entries
    self.snapshots = snapshots
    self.headSequence = headSequence
  }
}
