import Foundation
import GRDB

/// Explicit removal of history: compacting a session, pruning sessions, giving freed pages back.
///
/// ```swift
/// let retention = JournalRetention()
/// let plan = try retention.prune(PruneCriteria(emptyOnly: true), dryRun: true, in: journal)
/// _ = try retention.prune(plan, in: journal)
/// ```
///
/// Nothing else drops journal entries; each call runs in one transaction.
public struct JournalRetention: Sendable {
  /// Creates the retention operations.
  public init() {}

  /// Drops a session's history below its oldest kept snapshot: keeps the last `keepSnapshots`
  /// snapshots and the entries after the oldest of them, deletes older snapshots and the entries
  /// at or below it, in one transaction.
  ///
  /// The session must verify first (see ``JournalVerifier``): compacting a session with problems
  /// would throw away what could repair it. With `dryRun`, reports what would go and writes
  /// nothing. The stacks at any kept sequence, and restores from it, are unchanged; the stacks
  /// at a dropped sequence can no longer be shown.
  public func compact(
    _ session: SessionID,
    keepSnapshots: Int,
    dryRun: Bool,
    in journal: SQLiteJournal
  ) throws -> CompactionPlan {
    precondition(keepSnapshots >= 1, "Compaction keeps at least one snapshot.")
    if !dryRun { try journal.requireWritable("compacting session \(session)") }
    let check = try JournalVerifier().verify(journal, session: session).sessions.first
    if let check, !check.isClean {
      throw StorageError(
        code: .inconsistentDelta,
        message: "Session \(session) does not verify (\(check.problems[0])); it was not "
          + "compacted. Run `stackjournal verify --db \(journal.path ?? "PATH")` and repair or "
          + "export it first.",
        path: journal.path)
    }
    func plan(_ db: Database) throws -> CompactionPlan {
      try Self.compactionPlan(session, keepSnapshots: keepSnapshots, of: journal, db)
    }
    if dryRun {
      return try journal.read("planning the compaction of session \(session)", plan)
    }
    return try journal.write("compacting session \(session)") { db in
      var result = try plan(db)
      guard !result.isEmpty, let cut = result.keptSnapshots.first else { return result }
      // The head is the last entry's sequence unless the session row holds a later one: keep
      // it there before the entries that tell it go.
      try db.execute(
        sql: "UPDATE sessions SET head_sequence = ? WHERE id = ?",
        arguments: [try journal.requireHead(db, session), session.rawValue])
      try db.execute(
        sql: "DELETE FROM journal WHERE session = ? AND sequence <= ?",
        arguments: [session.rawValue, cut])
      try db.execute(
        sql: "DELETE FROM snapshots WHERE session = ? AND sequence < ?",
        arguments: [session.rawValue, cut])
      result.applied = true
      return result
    }
  }

  /// What compacting the session drops, read through `db`.
  private static func compactionPlan(
    _ session: SessionID,
    keepSnapshots: Int,
    of journal: SQLiteJournal,
    _ db: Database
  ) throws -> CompactionPlan {
    _ = try journal.requireHead(db, session)
    let sequences = try Int64.fetchAll(
      db, sql: "SELECT sequence FROM snapshots WHERE session = ? ORDER BY sequence",
      arguments: [session.rawValue])
    let kept = Array(sequences.suffix(keepSnapshots))
    let dropped = Array(sequences.dropLast(keepSnapshots))
    let cut = kept.first ?? 0
    let entries = try DroppedEntries.fetchOne(
      db,
      sql: "SELECT count(*) AS count, min(sequence) AS first, max(sequence) AS last, "
        + "coalesce(sum(length(CAST(type AS BLOB)) + length(CAST(payload AS BLOB)) "
        + "+ length(CAST(delta AS BLOB)) + 40), 0) AS bytes FROM journal "
        + "WHERE session = ? AND sequence <= ?",
      arguments: [session.rawValue, cut])
    let snapshotBytes =
      try Int64.fetchOne(
        db,
        sql: "SELECT coalesce(sum(length(CAST(state AS BLOB)) + length(CAST(stacks AS BLOB)) "
          + "+ 40), 0) FROM snapshots WHERE session = ? AND sequence < ?",
        arguments: [session.rawValue, cut]) ?? 0
    let forks = try String.fetchAll(
      db, sql: "SELECT id FROM sessions WHERE forked_from = ? AND forked_at < ? ORDER BY id",
      arguments: [session.rawValue, cut])
    let count = entries?.count ?? 0
    var range: ClosedRange<Int64>?
    if count > 0, let first = entries?.first, let last = entries?.last {
      range = first...last
    }
    return CompactionPlan(
      session: session, keptSnapshots: kept, droppedSnapshots: dropped, droppedEntries: range,
      droppedEntryCount: count, droppedBytes: (entries?.bytes ?? 0) + snapshotBytes,
      forksBeforeCut: forks.map(SessionID.init(rawValue:)), applied: false)
  }

  /// Deletes every session that matches `criteria` with its journal, snapshots and stack rows,
  /// all in one transaction that also reads the sessions and matches them; with `dryRun`,
  /// reports them and writes nothing.
  ///
  /// Throws ``StorageError/Code/invalidData`` for empty criteria rather than deleting every
  /// session.
  public func prune(
    _ criteria: PruneCriteria,
    dryRun: Bool,
    in journal: SQLiteJournal
  ) throws -> PrunePlan {
    try criteria.requireNotEmpty(place: journal.path)
    func plan(_ db: Database) throws -> PrunePlan {
      for id in criteria.sessions { _ = try journal.requireHead(db, id) }
      return try Self.prunePlan(criteria, of: journal, db) { _ in true }
    }
    if dryRun { return try journal.read("planning the pruning of sessions", plan) }
    return try journal.write("pruning sessions") { db in
      try Self.deleteSessions(of: try plan(db), db)
    }
  }

  /// Deletes the sessions of a plan made earlier by a dry run, those that have not changed
  /// since: in one transaction, each must still match the plan's criteria and still have the
  /// head sequence and entry count the plan saw.
  ///
  /// A session that changed in between (an app appended to it, say) is kept with what it
  /// gained, and listed in ``PrunePlan/changed``. A session that matches now but was not in
  /// the plan is not deleted.
  public func prune(_ planned: PrunePlan, in journal: SQLiteJournal) throws -> PrunePlan {
    try planned.criteria.requireNotEmpty(place: journal.path)
    let unchanged = PrunePlan.unchanged(since: planned)
    return try journal.write("pruning sessions") { db in
      var plan = try Self.prunePlan(planned.criteria, of: journal, db, include: unchanged)
      let kept = Set(plan.sessions.map(\.info.id))
      plan.changed = planned.sessions.map(\.info.id).filter { !kept.contains($0) }
      return try Self.deleteSessions(of: plan, db)
    }
  }

  /// Rebuilds the file so the pages freed by compaction and pruning are given back to the
  /// operating system (`VACUUM`). Needs room for a copy of the database.
  public func vacuum(_ journal: SQLiteJournal) throws {
    try journal.requireWritable("vacuuming")
    try journal.usingDatabase("vacuuming") {
      try journal.database.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }
  }

  /// The sessions that match `criteria` and pass `include`, as read through `db`.
  private static func prunePlan(
    _ criteria: PruneCriteria,
    of journal: SQLiteJournal,
    _ db: Database,
    include: (SessionInfo) -> Bool
  ) throws -> PrunePlan {
    let sizes = try JournalStatistics.sessionSizes(db)
    let all = try journal.fetchSessions(db, where: "", arguments: [])
    return PrunePlan.matching(criteria, among: all, sizes: sizes, include: include)
  }

  /// Deletes the plan's sessions with all their rows; marks the plan applied when it has any.
  private static func deleteSessions(of plan: PrunePlan, _ db: Database) throws -> PrunePlan {
    guard !plan.sessions.isEmpty else { return plan }
    for info in plan.sessions.map(\.info) {
      let id = info.id.rawValue
      for table in ["stack_elements", "stacks", "snapshots", "journal", "sessions"] {
        let column = table == "sessions" ? "id" : "session"
        try db.execute(sql: "DELETE FROM \(table) WHERE \(column) = ?", arguments: [id])
      }
    }
    var plan = plan
    plan.applied = true
    return plan
  }
}

/// The journal rows a compaction drops: how many, which sequences, how many bytes.
private struct DroppedEntries: StoredRowRecord {
  var count: Int64
  var first: Int64?
  var last: Int64?
  var bytes: Int64
}
