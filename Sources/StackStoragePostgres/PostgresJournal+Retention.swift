#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackJournalCore

  extension PostgresJournal: RetainableJournal {
    /// Drops a session's history below its oldest kept snapshot: keeps the last
    /// `keepSnapshots` snapshots and the entries after the oldest of them, deletes older
    /// snapshots and the entries at or below it, in one transaction that holds the session's
    /// row lock, so appends wait for it. The session must verify first. With `dryRun`, reports
    /// what would go and writes nothing.
    public func compact(_ session: SessionID, keepSnapshots: Int, dryRun: Bool) async throws
      -> CompactionPlan
    {
      precondition(keepSnapshots >= 1, "Compaction keeps at least one snapshot.")
      if !dryRun { try requireWritable("compacting session \(session)") }
      let check = try await verifyStorage(session: session, maxProblemsPerSession: 1).sessions.first
      if let check, !check.isClean {
        throw StorageError(
          code: .inconsistentDelta,
          message: "Session \(session) does not verify (\(check.problems[0])); it was not "
            + "compacted. Run `stackjournal verify --db \(location.description)` and repair or "
            + "export it first.")
      }
      let (sessions, entries, snapshots) = (sessionRows, entryRows, snapshotRows)
      let logger = self.logger
      let plan = try await run("compacting session \(session)") { client in
        try await client.withTransaction(logger: logger) {
          connection -> CompactionPlan? in
          // A dry run only reads; the compaction locks the session's row, so appends wait.
          let locked = try await connection.query(
            sessions.find(session, locking: !dryRun), logger: logger
          ).collect()
          guard !locked.isEmpty else { return nil }
          var sequences: [Int64] = []
          for try await sequence in try await connection.query(
            snapshots.sequences(session), logger: logger
          ).decode(Int64.self) {
            sequences.append(sequence)
          }
          let kept = Array(sequences.suffix(keepSnapshots))
          let dropped = Array(sequences.dropLast(keepSnapshots))
          let cut = kept.first ?? 0
          let measured = try await connection.query(
            entries.compactionMeasure(session, cut: cut), logger: logger
          ).collect()
          let (count, first, last, entryBytes, snapshotBytes) = try measured[0].decode(
            (Int64, Int64?, Int64?, Int64, Int64).self)
          var forks: [SessionID] = []
          for try await fork in try await connection.query(
            sessions.forks(of: session, before: cut), logger: logger
          ).decode(String.self) {
            forks.append(SessionID(fork))
          }
          var range: ClosedRange<Int64>?
          if count > 0, let first, let last { range = first...last }
          var plan = CompactionPlan(
            session: session, keptSnapshots: kept, droppedSnapshots: dropped,
            droppedEntries: range, droppedEntryCount: count,
            droppedBytes: entryBytes + snapshotBytes, forksBeforeCut: forks, applied: false)
          guard !dryRun, !plan.isEmpty else { return plan }
          try await connection.query(entries.delete(session, atOrBelow: cut), logger: logger)
          try await connection.query(snapshots.delete(session, below: cut), logger: logger)
          plan.applied = true
          return plan
        }
      }
      guard let plan else { throw stored.unknownSession(session) }
      return plan
    }

    /// Deletes every session that matches `criteria` with its journal, snapshots and stack
    /// rows, in one transaction that first locks every session row (appends wait), then reads
    /// and matches them; with `dryRun`, reports them and writes nothing.
    public func prune(_ criteria: PruneCriteria, dryRun: Bool) async throws -> PrunePlan {
      try criteria.requireNotEmpty(place: location.description)
      for id in criteria.sessions { _ = try await headSequence(session: id) }
      if !dryRun { try requireWritable("pruning sessions") }
      return try await prune(criteria, dryRun: dryRun) { _ in true }
    }

    /// Deletes the sessions of a plan made by a dry run that still match its criteria and
    /// still have the head and entry count it saw, in one transaction; the others are kept
    /// and listed in `PrunePlan.changed`.
    public func prune(_ planned: PrunePlan) async throws -> PrunePlan {
      try planned.criteria.requireNotEmpty(place: location.description)
      try requireWritable("pruning sessions")
      var plan = try await prune(
        planned.criteria, dryRun: false, include: PrunePlan.unchanged(since: planned))
      let kept = Set(plan.sessions.map(\.info.id))
      plan.changed = planned.sessions.map(\.info.id).filter { !kept.contains($0) }
      return plan
    }

    private func prune(
      _ criteria: PruneCriteria,
      dryRun: Bool,
      include: @escaping @Sendable (SessionInfo) -> Bool
    ) async throws -> PrunePlan {
      let sessions = sessionRows
      let logger = self.logger
      return try await run("pruning sessions") { client in
        try await client.withTransaction(logger: logger) { connection in
          if !dryRun { try await connection.query(sessions.lockAll, logger: logger) }
          let all = try self.decodeSessions(
            try await connection.query(sessions.list(id: nil), logger: logger).collect())
          let sizes = try self.decodeSizes(
            try await connection.query(sessions.sizes, logger: logger).collect())
          var plan = PrunePlan.matching(criteria, among: all, sizes: sizes, include: include)
          guard !dryRun, !plan.sessions.isEmpty else { return plan }
          for statement in sessions.delete(plan.sessions.map(\.info.id)) {
            try await connection.query(statement, logger: logger)
          }
          plan.applied = true
          return plan
        }
      }
    }
  }
#endif
