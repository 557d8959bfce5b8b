import GRDB

extension SQLiteJournal {
  /// The stacks at the session's head, read from the `stacks` and `stack_elements` rows.
  public func headStacks(session: SessionID) throws -> [StackRecord] {
    try read("reading the stacks of session \(session)") { db in
      _ = try SessionRows.requireHead(db, session, stored)
      return try StackRows.load(db, session: session.rawValue)
    }
  }

  /// The stacks at a sequence: the nearest snapshot's stacks with the deltas that follow it
  /// applied, in one read transaction. Needs no app types and runs no upcaster.
  ///
  /// Throws `StorageError.Code.sequenceOutOfRange` outside 0 through the head, and
  /// `StorageError.Code.inconsistentDelta` when a stored delta does not fit.
  public func stacks(session: SessionID, at sequence: Int64) throws -> [StackRecord] {
    try read("rebuilding the stacks of session \(session) at \(sequence)") { db in
      try stacks(
        db, session: session, at: sequence, head: try SessionRows.requireHead(db, session, stored))
    }
  }

  /// The stacks at a sequence of a session whose head is `head`, read through `db`: its rows
  /// fed to a ``StackRebuild``.
  func stacks(_ db: Database, session: SessionID, at sequence: Int64, head: Int64) throws
    -> [StackRecord]
  {
    let snapshot = try SnapshotRows.latestStacks(db, session: session, atOrBelow: sequence)
    var rebuild = try StackRebuild(
      session: session, at: sequence, head: head,
      snapshot: snapshot.map { ($0.sequence, $0.stacks) }, stored: stored)
    let deltas = try JournalRows.deltas(
      db, session: session, after: rebuild.sequence, through: sequence)
    while let record = try deltas.next() {
      try rebuild.apply(entry: record.sequence, delta: record.delta)
    }
    return try rebuild.stacks(at: sequence)
  }
}
