import Foundation
import GRDB

extension SQLiteJournal: InspectableJournal {
  /// The file's path (`:memory:` for an in-memory journal).
  public var locationDescription: String { path ?? ":memory:" }

  /// The stored bytes of each session, read in one read transaction.
  ///
  /// Reads the length of every stored text, so it scans the whole file: use it for listings,
  /// not in a loop.
  public func sessionSizes() throws -> [SessionID: SessionSize] {
    try read("measuring sessions") { db in try SQLiteStatistics.sessionSizes(db) }
  }

  /// The file's statistics — sizes per table and session, snapshot coverage and entries over
  /// time — read in one read transaction, so the figures are of one moment; counts only
  /// `session`'s entries and lists only it when given.
  ///
  /// ```swift
  /// let stats = try journal.statistics()
  /// print(stats.fileBytes, stats.sessions.map(\.largestSnapshotGap))
  /// ```
  ///
  /// Throws `StorageError.Code.unknownSession` for a session the journal does not hold.
  public func statistics(session: SessionID? = nil) throws -> StorageStatistics {
    var walBytes: Int64?
    if let path, let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal") {
      walBytes = (attributes[.size] as? NSNumber)?.int64Value
    }
    return try read("gathering statistics") { db in
      try SQLiteStatistics.statistics(db, session: session, walBytes: walBytes, stored)
    }
  }

  /// Checks the file and one session, or every session when `session` is `nil`, without the
  /// app's types; only reads. Stops checking a session after `maxProblemsPerSession` problems.
  ///
  /// ```swift
  /// let report = try journal.verifyStorage()
  /// if !report.isClean { print(report.sessions.flatMap(\.problems)) }
  /// ```
  ///
  /// The file: SQLite's integrity and foreign-key checks, the recorded migrations against this
  /// build's checksums, and its schema against the one the migrations make (nothing added,
  /// changed or replaced by hand). Each session: sequences from its oldest snapshot to its head
  /// with no gap; every delta applies to the stacks before it (pushing no ID its stack holds,
  /// never moving a next ID back) and keeps every ID below its stack's next generation; every
  /// snapshot's stacks equal the stacks rebuilt from the journal at its sequence; the stack rows
  /// equal those at the head; payloads, states and times parse.
  ///
  /// All in one read transaction: the sessions checked are those the file lists, as they were
  /// when the check began, whatever another process commits meanwhile (an app appending, a
  /// `prune` removing a session listed).
  public func verifyStorage(session: SessionID? = nil, maxProblemsPerSession: Int = 20) throws
    -> StorageVerification
  {
    try read("verifying the file") { db in
      let file = try SQLiteVerification.checkFile(db, session: session, stored)
      return file.verification(
        try file.sessions.map { id in
          try SQLiteVerification.verifySession(
            id, db, stored, maxProblems: maxProblemsPerSession)
        })
    }
  }

  /// The problems `PRAGMA integrity_check` reports; empty when the database is sound.
  package func integrityProblems() throws -> [String] {
    try read("checking integrity") { db in try SQLiteVerification.integrityProblems(db) }
  }
}

extension SQLiteJournal: RetainableJournal {
  /// Drops a session's history below its oldest kept snapshot: keeps the last `keepSnapshots`
  /// snapshots and the entries after the oldest of them, deletes older snapshots and the entries
  /// at or below it, in one transaction.
  ///
  /// The session must verify first (see ``verifyStorage(session:maxProblemsPerSession:)``):
  /// compacting a session with problems would throw away what could repair it. With `dryRun`,
  /// reports what would go and writes nothing. The stacks at any kept sequence, and restores
  /// from it, are unchanged; the stacks at a dropped sequence can no longer be shown. Nothing
  /// else drops journal entries.
  public func compact(_ session: SessionID, keepSnapshots: Int, dryRun: Bool) throws
    -> CompactionPlan
  {
    precondition(keepSnapshots >= 1, "Compaction keeps at least one snapshot.")
    if !dryRun { try requireWritable("compacting session \(session)") }
    let check = try verifyStorage(session: session, maxProblemsPerSession: 20).sessions.first
    try SQLiteRetention.requireClean(check, session, stored)
    if dryRun {
      return try read("planning the compaction of session \(session)") { db in
        try SQLiteRetention.compactionPlan(db, session, keepSnapshots: keepSnapshots, stored)
      }
    }
    return try write("compacting session \(session)") { db in
      try SQLiteRetention.compact(db, session, keepSnapshots: keepSnapshots, stored)
    }
  }

  /// Deletes every session that matches `criteria` with its journal, snapshots and stack rows,
  /// all in one transaction that also reads the sessions and matches them; with `dryRun`,
  /// reports them and writes nothing.
  ///
  /// ```swift
  /// let plan = try journal.prune(PruneCriteria(emptyOnly: true), dryRun: true)
  /// _ = try journal.prune(plan)
  /// ```
  ///
  /// Throws `StorageError.Code.invalidData` for empty criteria rather than deleting every
  /// session.
  public func prune(_ criteria: PruneCriteria, dryRun: Bool) throws -> PrunePlan {
    try criteria.requireNotEmpty(place: path)
    if dryRun {
      return try read("planning the pruning of sessions") { db in
        try SQLiteRetention.prunePlan(db, criteria, stored)
      }
    }
    return try write("pruning sessions") { db in
      let plan = try SQLiteRetention.prunePlan(db, criteria, stored)
      return try SQLiteRetention.deleteSessions(of: plan, db)
    }
  }

  /// Deletes the sessions of a plan made earlier by a dry run, those that have not changed
  /// since: in one transaction, each must still match the plan's criteria and still have the
  /// head sequence and entry count the plan saw.
  ///
  /// A session that changed in between (an app appended to it, say) is kept with what it
  /// gained, and listed in `PrunePlan.changed`. A session that matches now but was not in
  /// the plan is not deleted.
  public func prune(_ planned: PrunePlan) throws -> PrunePlan {
    try planned.criteria.requireNotEmpty(place: path)
    return try write("pruning sessions") { db in
      try SQLiteRetention.prune(db, planned, stored)
    }
  }

  /// Gives the pages freed by compaction and pruning back to the operating system (`VACUUM`,
  /// outside any transaction). Needs room for a copy of the database.
  ///
  /// A failed `VACUUM` changes nothing (SQLite rolls its copy back) and throws a
  /// ``StorageError`` that says so, with SQLite's reason: what was committed before stays.
  package func vacuum() throws {
    try requireWritable("vacuuming")
    do {
      try usingDatabase("vacuuming") {
        try database.writeWithoutTransaction { db in try SQLiteRetention.vacuum(db) }
      }
    } catch let error as StorageError {
      guard let database = error.underlying as? DatabaseError else { throw error }
      throw StorageError(
        code: error.code,
        message: "VACUUM of \(path ?? "the in-memory database") failed "
          + "(\(database.message ?? "\(database)")) and changed nothing; it needs room for a copy "
          + "of the journal. The file keeps its size meanwhile and reuses its freed pages; free "
          + "some space, then run VACUUM again (`sqlite3 \(path ?? "FILE") VACUUM`).",
        path: path, underlying: database)
    }
  }
}
