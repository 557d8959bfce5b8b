import Foundation

/// How many bytes of a file one session holds, counting the stored text of its rows.
public struct SessionSize: Sendable, Equatable {
  /// Bytes of journal rows (type, payload and delta text).
  public var journalBytes: Int64
  /// Bytes of snapshot rows (state and stacks text).
  public var snapshotBytes: Int64
  /// Bytes of the head's stack element rows (state text).
  public var stackBytes: Int64
  /// How many snapshots the session holds.
  public var snapshotCount: Int

  /// Creates a size.
  public init(journalBytes: Int64, snapshotBytes: Int64, stackBytes: Int64, snapshotCount: Int) {
    self.journalBytes = journalBytes
    self.snapshotBytes = snapshotBytes
    self.stackBytes = stackBytes
    self.snapshotCount = snapshotCount
  }

  /// No bytes: a session without rows.
  public static let zero = SessionSize(
    journalBytes: 0, snapshotBytes: 0, stackBytes: 0, snapshotCount: 0)

  /// All bytes together.
  public var totalBytes: Int64 { journalBytes + snapshotBytes + stackBytes }
}
