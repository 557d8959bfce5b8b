/// The stacks at a sequence, rebuilt as every reader rebuilds them: the stacks of the nearest
/// snapshot at or below it, then the delta of each entry after that snapshot, in order, through
/// the sequence. Needs no app types and runs no upcaster.
///
/// Engines read their rows each their own way — a cursor inside one read transaction on SQLite,
/// the rows of one statement on PostgreSQL — and feed them to it: the head and the snapshot
/// found, then each entry's delta. The report page and replay verification go on from stacks
/// already rebuilt, one recorded entry at a time. The steps are ``DeltaWalk``'s, which the
/// journal's verifier and a session export's reader take too; this type words what goes wrong as
/// a reader's ``StorageError``.
package struct StackRebuild: Sendable {
  /// The session whose stacks these are.
  package let session: SessionID
  private let stored: StoredValues
  private var walk: DeltaWalk

  /// The sequence reached.
  package var sequence: Int64 { walk.sequence }
  /// The stacks at ``sequence``.
  package var stacks: [StackRecord] { walk.stacks }

  /// Starts rebuilding the stacks at `target` of a session whose head is `head`, from
  /// `snapshot`: the sequence and stored stacks of the session's snapshot nearest at or below
  /// `target`, `nil` when there is none.
  ///
  /// Throws ``StorageError/Code/sequenceOutOfRange`` outside 0 through the head,
  /// ``StorageError/Code/snapshotMissing`` without a snapshot, and
  /// ``StorageError/Code/invalidData`` when its stacks cannot be read.
  package init(
    session: SessionID,
    at target: Int64,
    head: Int64,
    snapshot: (sequence: Int64, stacks: String)?,
    stored: StoredValues
  ) throws {
    guard (0...head).contains(target) else {
      throw stored.outOfRange(session, target, head: head)
    }
    guard let snapshot else {
      throw StorageError(
        code: .snapshotMissing,
        message: "Session \(session) has no snapshot at or below sequence \(target), not even "
          + "its initial state; its stacks cannot be rebuilt. Run `\(stored.verifyCommand)`.",
        path: stored.path
      )
    }
    let stacks = try stored.decode(
      [StackRecord].self, snapshot.stacks,
      "stacks of the snapshot at \(snapshot.sequence) of \(session)")
    if let problem = stacks.lazy.compactMap(StackComparison.presentationProblem).first {
      throw StorageError(
        code: .invalidData,
        message: "The snapshot at \(snapshot.sequence) of session \(session) is damaged: "
          + "\(problem). Run `\(stored.verifyCommand)`.",
        path: stored.path)
    }
    self.init(session: session, from: snapshot.sequence, stacks: stacks, stored: stored)
  }

  /// Goes on from `stacks`, the session's stacks at `sequence`.
  package init(
    session: SessionID, from sequence: Int64, stacks: [StackRecord],
    stored: StoredValues = .server("the journal")
  ) {
    self.session = session
    self.stored = stored
    self.walk = DeltaWalk(base: sequence, stacks: stacks)
  }

  /// Applies the delta of the next entry, `entry`, stored as JSON text.
  ///
  /// Throws ``StorageError/Code/invalidData`` when the delta cannot be read or the entry does
  /// not follow the last one, and ``StorageError/Code/inconsistentDelta`` when the delta does
  /// not fit the stacks; the stacks stay as they were.
  package mutating func apply(entry: Int64, delta text: String) throws {
    try apply(
      entry: entry,
      stored.decode(StackDelta.self, text, "delta of entry \(entry) of \(session)"))
  }

  /// Applies the delta of the next entry, `entry` (see ``apply(entry:delta:)``).
  package mutating func apply(entry: Int64, _ delta: StackDelta) throws {
    do throws(DeltaWalk.Finding) {
      try walk.apply(entry: entry, delta)
    } catch {
      switch error {
      case .inapplicableDelta(let problem):
        throw StorageError(
          code: .inconsistentDelta, message: "Entry \(entry) of session \(session): \(problem)",
          path: stored.path)
      case .outOfSequence(let expected, let found):
        throw hole(expected: expected, found: found)
      case .unreadableDelta, .snapshotDiffers:
        throw StorageError(
          code: .invalidData,
          message: "Entry \(entry) of session \(session) cannot be applied. Run "
            + "`\(stored.verifyCommand)`.",
          path: stored.path)
      }
    }
  }

  /// The stacks at `target`, once every entry through it was applied; throws
  /// ``StorageError/Code/invalidData`` when the entries ended before it.
  package func stacks(at target: Int64) throws -> [StackRecord] {
    guard sequence == target else { throw hole(expected: sequence + 1, found: nil) }
    return stacks
  }

  /// The error of a journal that lacks the entry `expected` (and holds `found` in its place).
  private func hole(expected: Int64, found: Int64?) -> StorageError {
    StorageError(
      code: .invalidData,
      message: "Session \(session) has no entry \(expected)"
        + (found.map { " but an entry \($0)" } ?? "")
        + ": its journal has a hole, and its stacks cannot be rebuilt past \(sequence). Run "
        + "`\(stored.verifyCommand)`.",
      path: stored.path)
  }
}
