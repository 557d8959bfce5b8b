import Foundation
import GRDB

extension SQLiteJournal: InspectableJournal {
  /// The file's path (`:memory:` for an in-memory journal).
  public var locationDescription: String { path ?? ":memory:" }

  /// The stored bytes of each session, read in one read transaction.
  public func sessionSizes() throws -> [SessionID: SessionSize] {
    try read("measuring sessions") { db in try JournalStatistics.sessionSizes(db) }
  }

  /// The file's statistics, from ``JournalStatistics``, read in one read transaction.
  public func statistics(session: SessionID?) throws -> StorageStatistics {
    var walBytes: Int64?
    if let path, let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal") {
      walBytes = (attributes[.size] as? NSNumber)?.int64Value
    }
    return try read("gathering statistics") { db in
      try JournalStatistics.statistics(db, session: session, walBytes: walBytes, stored)
    }
  }

  /// Checks the file and its sessions with ``JournalVerifier``, all in one read transaction: the
  /// sessions checked are those the file lists, as they were when the check began, whatever
  /// another process commits meanwhile (an app appending, a `prune` removing a session listed).
  public func verifyStorage(session: SessionID?, maxProblemsPerSession: Int) throws
    -> StorageVerification
  {
    let verifier = JournalVerifier(maxProblemsPerSession: maxProblemsPerSession)
    return try read("verifying the file") { db in
      let file = try JournalVerifier.checkFile(db, session: session, stored)
      return file.verification(
        try file.sessions.map { id in try verifier.verifySession(id, db, stored) })
    }
  }

  /// The problems `PRAGMA integrity_check` reports; empty when the database is sound.
  func integrityProblems() throws -> [String] {
    try read("checking integrity") { db in try JournalVerifier.integrityProblems(db) }
  }
}

extension SQLiteJournal: RetainableJournal {
  /// Compacts the session with ``JournalRetention``: verifies it, then plans (with `dryRun`)
  /// or compacts it in one transaction.
  public func compact(_ session: SessionID, keepSnapshots: Int, dryRun: Bool) throws
    -> CompactionPlan
  {
    precondition(keepSnapshots >= 1, "Compaction keeps at least one snapshot.")
    if !dryRun { try requireWritable("compacting session \(session)") }
    let check = try verifyStorage(session: session, maxProblemsPerSession: 20).sessions.first
    try JournalRetention.requireClean(check, session, stored)
    if dryRun {
      return try read("planning the compaction of session \(session)") { db in
        try JournalRetention.compactionPlan(db, session, keepSnapshots: keepSnapshots, stored)
      }
    }
    return try write("compacting session \(session)") { db in
      try JournalRetention.compact(db, session, keepSnapshots: keepSnapshots, stored)
    }
  }

  /// Prunes sessions with ``JournalRetention``, in one transaction.
  public func prune(_ criteria: PruneCriteria, dryRun: Bool) throws -> PrunePlan {
    try criteria.requireNotEmpty(place: path)
    if dryRun {
      return try read("planning the pruning of sessions") { db in
        try JournalRetention.prunePlan(db, criteria, stored)
      }
    }
    return try write("pruning sessions") { db in
      let plan = try JournalRetention.prunePlan(db, criteria, stored)
      return try JournalRetention.deleteSessions(of: plan, db)
    }
  }

  /// Prunes a planned set of sessions with ``JournalRetention``, in one transaction.
  public func prune(_ planned: PrunePlan) throws -> PrunePlan {
    try planned.criteria.requireNotEmpty(place: path)
    return try write("pruning sessions") { db in
      try JournalRetention.prune(db, planned, stored)
    }
  }

  /// Gives the pages freed by compaction and pruning back to the operating system (`VACUUM`,
  /// outside any transaction; see ``JournalRetention/vacuum(_:)``).
  ///
  /// A failed `VACUUM` changes nothing (SQLite rolls its copy back) and throws a
  /// ``StorageError`` that says so, with SQLite's reason: what was committed before stays.
  func vacuum() throws {
    try requireWritable("vacuuming")
    do {
      try usingDatabase("vacuuming") {
        try database.writeWithoutTransaction { db in try JournalRetention.vacuum(db) }
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
