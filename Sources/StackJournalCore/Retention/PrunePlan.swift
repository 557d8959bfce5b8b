import Foundation

/// What pruning deletes, or deleted.
public struct PrunePlan: Sendable {
  /// The criteria the plan was made for.
  public var criteria: PruneCriteria
  /// The sessions deleted, with their sizes.
  public var sessions: [(info: SessionInfo, size: SessionSize)]
  /// Sessions that are kept but were forked from a deleted one.
  public var orphanedForks: [SessionID]
  /// Sessions an earlier plan listed that were kept because they changed since it was made:
  /// their head moved, their entry count changed, they no longer match, or they are gone.
  public var changed: [SessionID]
  /// Whether the sessions were deleted (`false` for a dry run or when none matched).
  public var applied: Bool

  /// Creates a plan.
  package init(
    criteria: PruneCriteria, sessions: [(info: SessionInfo, size: SessionSize)],
    orphanedForks: [SessionID], changed: [SessionID], applied: Bool
  ) {
    self.criteria = criteria
    self.sessions = sessions
    self.orphanedForks = orphanedForks
    self.changed = changed
    self.applied = applied
  }

  /// The stored bytes of the deleted sessions.
  public var bytes: Int64 { sessions.reduce(0) { $0 + $1.size.totalBytes } }
}
