import Foundation

extension SQLiteJournal: InspectableJournal {
  /// The file's path (`:memory:` for an in-memory journal).
  public var locationDescription: String { path ?? ":memory:" }

  /// The stored bytes of each session.
  public func sessionSizes() throws -> [SessionID: SessionSize] {
    try JournalStatistics().sessionSizes(of: self)
  }

  /// The file's statistics, from ``JournalStatistics``.
  public func statistics(session: SessionID?) throws -> StorageStatistics {
    try JournalStatistics().statistics(of: self, session: session)
  }

  /// Checks the file and its sessions with ``JournalVerifier``.
  public func verifyStorage(session: SessionID?, maxProblemsPerSession: Int) throws
    -> StorageVerification
  {
    try JournalVerifier(maxProblemsPerSession: maxProblemsPerSession).verify(self, session: session)
  }
}

extension SQLiteJournal: RetainableJournal {
  /// Compacts the session with ``JournalRetention``.
  public func compact(_ session: SessionID, keepSnapshots: Int, dryRun: Bool) throws
    -> CompactionPlan
  {
    try JournalRetention().compact(session, keepSnapshots: keepSnapshots, dryRun: dryRun, in: self)
  }

  /// Prunes sessions with ``JournalRetention``.
  public func prune(_ criteria: PruneCriteria, dryRun: Bool) throws -> PrunePlan {
    try JournalRetention().prune(criteria, dryRun: dryRun, in: self)
  }

  /// Prunes a planned set of sessions with ``JournalRetention``.
  public func prune(_ planned: PrunePlan) throws -> PrunePlan {
    try JournalRetention().prune(planned, in: self)
  }
}
