import Foundation

/// A journal whose history can be removed on purpose: compacting a session, pruning sessions.
/// `SQLiteJournal` and the PostgreSQL backend implement it
/// with the same plans and guarantees.
public protocol RetainableJournal: InspectableJournal {
  /// Drops a session's history below its oldest kept snapshot, in one transaction, after
  /// checking that the session verifies; with `dryRun`, reports what would go and writes
  /// nothing. See `SQLiteJournal.compact(_:keepSnapshots:dryRun:)`.
  func compact(_ session: SessionID, keepSnapshots: Int, dryRun: Bool) async throws -> CompactionPlan

  /// Deletes every session that matches `criteria`, in one transaction; with `dryRun`, reports
  /// them and writes nothing. See `SQLiteJournal.prune(_:dryRun:)`.
  func prune(_ criteria: PruneCriteria, dryRun: Bool) async throws -> PrunePlan

  /// Deletes the sessions of a plan made earlier by a dry run that have not changed since. See
  /// `SQLiteJournal.prune(_:)`.
  func prune(_ planned: PrunePlan) async throws -> PrunePlan
}

extension PruneCriteria {
  /// Throws ``StorageError/Code/invalidData`` for empty criteria rather than deleting every
  /// session.
  package func requireNotEmpty(place: String?) throws {
    guard isEmpty else { return }
    throw StorageError(
      code: .invalidData,
      message: "Pruning needs at least one criterion (idle since, forks, empty or sessions); "
        + "nothing was deleted.",
      path: place)
  }
}

extension PrunePlan {
  /// The plan of deleting the sessions of `all` that match `criteria` and pass `include`.
  package static func matching(
    _ criteria: PruneCriteria,
    among all: [SessionInfo],
    sizes: [SessionID: SessionSize],
    include: (SessionInfo) -> Bool
  ) -> PrunePlan {
    let matching = all.filter { criteria.matches($0) && include($0) }
    let deleted = Set(matching.map(\.id))
    let orphans = all.filter { info in
      !deleted.contains(info.id) && info.forkedFrom.map(deleted.contains) == true
    }.map(\.id)
    return PrunePlan(
      criteria: criteria,
      sessions: matching.map { ($0, sizes[$0.id] ?? .zero) },
      orphanedForks: orphans,
      changed: [],
      applied: false)
  }

  /// Keeps the sessions of `planned` that have not changed (same head and entry count).
  package static func unchanged(since planned: PrunePlan) -> @Sendable (SessionInfo) -> Bool {
    let seen = Dictionary(
      planned.sessions.map { ($0.info.id, $0.info) }, uniquingKeysWith: { first, _ in first })
    return { info in
      guard let before = seen[info.id] else { return false }
      return before.headSequence == info.headSequence && before.entryCount == info.entryCount
    }
  }
}
