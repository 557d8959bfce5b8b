import Foundation

/// Which sessions ``RetainableJournal/prune(_:dryRun:)`` deletes: those that match every
/// criterion given.
public struct PruneCriteria: Sendable, Equatable {
  /// Sessions whose last activity (their creation when they have no entry) is before this date.
  public var idleBefore: Date?
  /// Only sessions forked from another one.
  public var forksOnly: Bool
  /// Only sessions forked from this session.
  public var forksOf: SessionID?
  /// Only sessions without any journal entry.
  public var emptyOnly: Bool
  /// Only these sessions.
  public var sessions: [SessionID]

  /// Creates criteria; with no arguments they match nothing, see ``isEmpty``.
  public init(
    idleBefore: Date? = nil,
    forksOnly: Bool = false,
    forksOf: SessionID? = nil,
    emptyOnly: Bool = false,
    sessions: [SessionID] = []
  ) {
    self.idleBefore = idleBefore
    self.forksOnly = forksOnly
    self.forksOf = forksOf
    self.emptyOnly = emptyOnly
    self.sessions = sessions
  }

  /// Whether no criterion is set. Pruning with no criterion is refused rather than deleting
  /// every session.
  public var isEmpty: Bool {
    idleBefore == nil && !forksOnly && forksOf == nil && !emptyOnly && sessions.isEmpty
  }

  /// Whether a session matches every criterion.
  public func matches(_ session: SessionInfo) -> Bool {
    if let idleBefore, (session.lastActivity ?? session.createdAt) >= idleBefore { return false }
    if forksOnly, session.forkedFrom == nil { return false }
    if let forksOf, session.forkedFrom != forksOf { return false }
    if emptyOnly, session.entryCount > 0 { return false }
    if !sessions.isEmpty, !sessions.contains(session.id) { return false }
    return true
  }
}
