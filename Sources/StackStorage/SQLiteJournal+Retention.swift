import Foundation
import GRDB

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

  /// Whether compacting changes nothing.
  public var isEmpty: Bool { droppedSnapshots.isEmpty && droppedEntryCount == 0 }
}

/// Which sessions ``SQLiteJournal/prune(_:dryRun:)`` deletes: those that match every criterion
/// given.
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

  /// The stored bytes of the deleted sessions.
  public var bytes: Int64 { sessions.reduce(0) { $0 + $1.size.totalBytes } }
}

extension SQLiteJournal {
  /// Drops a session's history below its oldest kept snapshot: keeps the last `keepSnapshots`
  /// snapshots and the entries after the oldest of them, deletes older snapshots and the entries
  /// at or below it, in one transaction.
  ///
  /// Never implicit: only this call drops entries. The session must verify first (see
  /// ``verifyStorage(session:maxProblemsPerSession:)``): compacting a session with problems
  /// would throw away what could repair it. With `dryRun`, reports what would go and writes
  /// nothing. The stacks at any kept sequence, and restores from it, are unchanged; the stacks
  /// at a dropped sequence can no longer be shown.
  public func compact(
    session: SessionID,
    keepSnapshots: Int,
    dryRun: Bool
  ) throws -> CompactionPlan {
    precondition(keepSnapshots >= 1, "Compaction keeps at least one snapshot.")
    if !dryRun { try requireWritable("compacting session \(session)") }
    let check = try verifyStorage(session: session).sessions.first
    if let check, !check.isClean {
      throw StorageError(
        code: .inconsistentDelta,
        message: "Session \(session) does not verify (\(check.problems[0])); it was not "
          + "compacted. Run `stackjournal verify --db \(path ?? "PATH")` and repair or export it "
          + "first.",
        path: path)
    }
    func plan(_ db: Database) throws -> CompactionPlan {
      _ = try requireHead(db, session)
      let sequences = try Int64.fetchAll(
        db, sql: "SELECT sequence FROM snapshots WHERE session = ? ORDER BY sequence",
        arguments: [session.rawValue])
      let kept = Array(sequences.suffix(keepSnapshots))
      let dropped = Array(sequences.dropLast(keepSnapshots))
      let cut = kept.first ?? 0
      let entries = try Row.fetchOne(
        db,
        sql: "SELECT count(*), min(sequence), max(sequence), coalesce(sum("
          + "length(CAST(type AS BLOB)) + length(CAST(payload AS BLOB)) "
          + "+ length(CAST(delta AS BLOB)) + 40), 0) FROM journal "
          + "WHERE session = ? AND sequence <= ?",
        arguments: [session.rawValue, cut])!
      let snapshotBytes =
        try Int64.fetchOne(
          db,
          sql: "SELECT coalesce(sum(length(CAST(state AS BLOB)) + length(CAST(stacks AS BLOB)) "
            + "+ 40), 0) FROM snapshots WHERE session = ? AND sequence < ?",
          arguments: [session.rawValue, cut]) ?? 0
      let count: Int64 = entries[0]
      let forks = try String.fetchAll(
        db, sql: "SELECT id FROM sessions WHERE forked_from = ? AND forked_at < ? ORDER BY id",
        arguments: [session.rawValue, cut])
      var range: ClosedRange<Int64>?
      if count > 0, let low = entries[1] as Int64?, let high = entries[2] as Int64? {
        range = low...high
      }
      return CompactionPlan(
        session: session, keptSnapshots: kept, droppedSnapshots: dropped, droppedEntries: range,
        droppedEntryCount: count, droppedBytes: (entries[3] as Int64) + snapshotBytes,
        forksBeforeCut: forks.map(SessionID.init(rawValue:)), applied: false)
    }
    if dryRun {
      return try read("planning the compaction of session \(session)", plan)
    }
    return try write("compacting session \(session)") { db in
      var result = try plan(db)
      guard !result.isEmpty, let cut = result.keptSnapshots.first else { return result }
      // The head is the last entry's sequence unless the session row holds a later one: keep
      // it there before the entries that tell it go.
      try db.execute(
        sql: "UPDATE sessions SET head_sequence = ? WHERE id = ?",
        arguments: [try requireHead(db, session), session.rawValue])
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

  /// Deletes every session that matches `criteria` with its journal, snapshots and stack rows,
  /// all in one transaction that also reads the sessions and matches them; with `dryRun`,
  /// reports them and writes nothing.
  ///
  /// Throws ``StorageError/Code/invalidData`` for empty criteria rather than deleting every
  /// session.
  public func prune(_ criteria: PruneCriteria, dryRun: Bool) throws -> PrunePlan {
    try requireCriteria(criteria)
    func plan(_ db: Database) throws -> PrunePlan {
      for id in criteria.sessions { _ = try requireHead(db, id) }
      return try prunePlan(db, criteria) { _ in true }
    }
    if dryRun { return try read("planning the pruning of sessions", plan) }
    return try write("pruning sessions") { db in try deleteSessions(of: try plan(db), db) }
  }

  /// Deletes the sessions of a plan made earlier by a dry run, those that have not changed
  /// since: in one transaction, each must still match the plan's criteria and still have the
  /// head sequence and entry count the plan saw.
  ///
  /// A session that changed in between (an app appended to it, say) is kept with what it
  /// gained, and listed in ``PrunePlan/changed``. A session that matches now but was not in
  /// the plan is not deleted.
  public func prune(_ planned: PrunePlan) throws -> PrunePlan {
    try requireCriteria(planned.criteria)
    let seen = Dictionary(
      planned.sessions.map { ($0.info.id, $0.info) }, uniquingKeysWith: { first, _ in first })
    return try write("pruning sessions") { db in
      var plan = try prunePlan(db, planned.criteria) { info in
        guard let before = seen[info.id] else { return false }
        return before.headSequence == info.headSequence && before.entryCount == info.entryCount
      }
      let kept = Set(plan.sessions.map(\.info.id))
      plan.changed = planned.sessions.map(\.info.id).filter { !kept.contains($0) }
      return try deleteSessions(of: plan, db)
    }
  }

  private func requireCriteria(_ criteria: PruneCriteria) throws {
    guard criteria.isEmpty else { return }
    throw StorageError(
      code: .invalidData,
      message: "Pruning needs at least one criterion (idle since, forks, empty or sessions); "
        + "nothing was deleted.",
      path: path)
  }

  /// The sessions that match `criteria` and pass `include`, as read through `db`.
  private func prunePlan(
    _ db: Database,
    _ criteria: PruneCriteria,
    include: (SessionInfo) -> Bool
  ) throws -> PrunePlan {
    let sizes = try sessionSizes(db)
    let all = try fetchSessions(db, where: "", arguments: [])
    let matching = all.filter { criteria.matches($0) && include($0) }
    let deleted = Set(matching.map(\.id))
    let orphans = all.filter { info in
      !deleted.contains(info.id) && info.forkedFrom.map(deleted.contains) == true
    }.map(\.id)
    return PrunePlan(
      criteria: criteria,
      sessions: matching.map {
        (
          $0,
          sizes[$0.id]
            ?? SessionSize(journalBytes: 0, snapshotBytes: 0, stackBytes: 0, snapshotCount: 0)
        )
      },
      orphanedForks: orphans,
      changed: [],
      applied: false)
  }

  /// Deletes the plan's sessions with all their rows; marks the plan applied when it has any.
  private func deleteSessions(of plan: PrunePlan, _ db: Database) throws -> PrunePlan {
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

  /// Rebuilds the file so the pages freed by compaction and pruning are given back to the
  /// operating system (`VACUUM`). Needs room for a copy of the database.
  public func vacuum() throws {
    try requireWritable("vacuuming")
    do {
      try database.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: "vacuuming")
    }
  }
}
