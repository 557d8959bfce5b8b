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

  /// The stacks at a sequence of a session whose head is `head`, read through `db`.
  func stacks(_ db: Database, session: SessionID, at sequence: Int64, head: Int64) throws
    -> [StackRecord]
  {
    guard (0...head).contains(sequence) else {
      throw stored.outOfRange(session, sequence, head: head)
    }
    let snapshot = try SnapshotRows.latestStacks(db, session: session, atOrBelow: sequence)
    guard let snapshot else {
      throw StorageError(
        code: .snapshotMissing,
        message: "Session \(session) has no snapshot at or below sequence \(sequence), not even "
          + "its initial state; its stacks cannot be rebuilt. Run `stackjournal verify --db "
          + "\(path ?? "PATH")`.",
        path: path
      )
    }
    let start = snapshot.sequence
    var stacks = try stored.decode(
      [StackRecord].self, snapshot.stacks, "stacks of the snapshot at \(start) of \(session)")
    let deltas = try JournalRows.deltas(db, session: session, after: start, through: sequence)
    while let record = try deltas.next() {
      let entry = record.sequence
      let delta = try stored.decode(
        StackDelta.self, record.delta, "delta of entry \(entry) of \(session)")
      do {
        try delta.apply(to: &stacks)
      } catch var error as StorageError {
        error.message = "Entry \(entry) of session \(session): " + error.message
        error.path = path
        throw error
      }
    }
    return stacks
  }
}
