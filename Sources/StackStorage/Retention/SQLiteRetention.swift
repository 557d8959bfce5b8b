import Foundation
import GRDB

/// What compacting a session and pruning sessions do to an SQLite journal: the functions behind
/// ``SQLiteJournal/compact(_:keepSnapshots:dryRun:)``, ``SQLiteJournal/prune(_:dryRun:)`` and
/// ``SQLiteJournal/prune(_:)``, each run inside the one transaction the journal opens.
///
/// Nothing else drops journal entries.
enum SQLiteRetention {
  /// `VACUUM` through `db`, outside any transaction.
  static func vacuum(_ db: Database) throws {
    try db.execute(sql: "VACUUM")
  }

  /// An ``StorageError/Code/inconsistentDelta`` error unless the session's check is clean:
  /// a session with problems is not compacted.
  static func requireClean(
    _ check: SessionVerification?, _ session: SessionID, _ stored: StoredValues
  ) throws {
    guard let check, !check.isClean else { return }
    throw StorageError(
      code: .inconsistentDelta,
      message: "Session \(session) does not verify (\(check.problems[0])); it was not "
        + "compacted. Run `stackjournal verify --db \(stored.path ?? "PATH")` and repair or "
        + "export it first.",
      path: stored.path)
  }

  /// Compacts the session through `db` as its plan says (see
  /// ``compactionPlan(_:_:keepSnapshots:_:)``).
  static func compact(
    _ db: Database, _ session: SessionID, keepSnapshots: Int, _ stored: StoredValues
  ) throws -> CompactionPlan {
    var result = try compactionPlan(db, session, keepSnapshots: keepSnapshots, stored)
    guard !result.isEmpty, let cut = result.keptSnapshots.first else { return result }
    // The head is the last entry's sequence unless the session row holds a later one: keep
    // it there before the entries that tell it go.
    try SessionRows.setHead(db, session, try SessionRows.requireHead(db, session, stored))
    try JournalRows.delete(db, session: session, through: cut)
    try SnapshotRows.delete(db, session: session, below: cut)
    result.applied = true
    return result
  }

  /// What compacting the session drops, read through `db`.
  static func compactionPlan(
    _ db: Database, _ session: SessionID, keepSnapshots: Int, _ stored: StoredValues
  ) throws -> CompactionPlan {
    _ = try SessionRows.requireHead(db, session, stored)
    let sequences = try SnapshotRows.sequences(db, session: session)
    let kept = Array(sequences.suffix(keepSnapshots))
    let dropped = Array(sequences.dropLast(keepSnapshots))
    let cut = kept.first ?? 0
    let entries = try JournalRows.span(db, session: session, through: cut)
    let snapshotBytes = try SnapshotRows.bytes(db, session: session, below: cut)
    let forks = try SessionRows.forks(db, of: session, below: cut)
    let count = entries?.count ?? 0
    var range: ClosedRange<Int64>?
    if count > 0, let first = entries?.first, let last = entries?.last {
      range = first...last
    }
    return CompactionPlan(
      session: session, keptSnapshots: kept, droppedSnapshots: dropped, droppedEntries: range,
      droppedEntryCount: count, droppedBytes: (entries?.bytes ?? 0) + snapshotBytes,
      forksBeforeCut: forks, applied: false)
  }

  /// The sessions that match `criteria`, as read through `db`; each session the criteria name
  /// must exist.
  static func prunePlan(_ db: Database, _ criteria: PruneCriteria, _ stored: StoredValues)
    throws -> PrunePlan
  {
    for id in criteria.sessions { _ = try SessionRows.requireHead(db, id, stored) }
    return try matching(db, criteria, stored) { _ in true }
  }

  /// Deletes the sessions of a plan made earlier that still match it unchanged, through `db`.
  static func prune(_ db: Database, _ planned: PrunePlan, _ stored: StoredValues) throws
    -> PrunePlan
  {
    var plan = try matching(
      db, planned.criteria, stored, include: PrunePlan.unchanged(since: planned))
    let kept = Set(plan.sessions.map(\.info.id))
    plan.changed = planned.sessions.map(\.info.id).filter { !kept.contains($0) }
    return try deleteSessions(of: plan, db)
  }

  /// The sessions that match `criteria` and pass `include`, as read through `db`.
  private static func matching(
    _ db: Database,
    _ criteria: PruneCriteria,
    _ stored: StoredValues,
    include: (SessionInfo) -> Bool
  ) throws -> PrunePlan {
    let sizes = try SQLiteStatistics.sessionSizes(db)
    let all = try SessionRows.infos(db, stored)
    return PrunePlan.matching(criteria, among: all, sizes: sizes, include: include)
  }

  /// Deletes the plan's sessions with all their rows through `db`; marks the plan applied when
  /// it has any.
  static func deleteSessions(of plan: PrunePlan, _ db: Database) throws -> PrunePlan {
    guard !plan.sessions.isEmpty else { return plan }
    for info in plan.sessions.map(\.info) {
      try SessionRows.delete(db, info.id)
    }
    var plan = plan
    plan.applied = true
    return plan
  }
}
