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
}
