import Foundation

/// What compacting a session drops, or dropped.
public struct CompactionPlan: Sendable {
  /// The session compacted.
  public var session: SessionID
  /// The snapshots kept, oldest first.
  public var keptSnapshots: [Int64]
  /// The snapshots dropped, oldest first.
  public var droppedSnapshots: [Int64]
  /// The sequences of the journal entries dropped; `nil` when none are.
  public var droppedEntries: ClosedRange<Int64>?
  /// How many entries are dropped.
  public var droppedEntryCount: Int64
  /// The stored bytes of the dropped rows.
  public var droppedBytes: Int64
  /// Sessions forked from this one at a sequence whose entries are dropped; they keep their
  /// own state, only the history leading to it goes.
  public var forksBeforeCut: [SessionID]
  /// Whether the rows were deleted (`false` for a dry run or when there is nothing to drop).
  public var applied: Bool

  /// Creates a plan.
  package init(
    session: SessionID, keptSnapshots: [Int64], droppedSnapshots: [Int64],
    droppedEntries: ClosedRange<Int64>?, droppedEntryCount: Int64, droppedBytes: Int64,
    forksBeforeCut: [SessionID], applied: Bool
  ) {
    self.session = session
    self.keptSnapshots = keptSnapshots
    self.droppedSnapshots = droppedSnapshots
    self.droppedEntries = droppedEntries
    self.droppedEntryCount = droppedEntryCount
    self.droppedBytes = droppedBytes
    self.forksBeforeCut = forksBeforeCut
    self.applied = applied
  }

  /// Whether compacting changes nothing.
  public var isEmpty: Bool { droppedSnapshots.isEmpty && droppedEntryCount == 0 }
}
