import Foundation
import StackNavigation

/// A session's rows exactly as stored, as a ``SessionCheck`` reads them, from any backend.
package protocol SessionRowSource {
  /// The sequences of the session's snapshots, oldest first.
  func snapshotSequences() throws -> [Int64]
  /// The snapshot at `sequence`, or `nil` when there is none.
  func snapshot(at sequence: Int64) throws -> StoredSnapshotRow?
  /// Calls `body` with every journal entry of the session in ascending order; `body` returns
  /// `false` to stop.
  func entries(_ body: (JournalRow) throws -> Bool) throws
  /// The stacks of the session's stack rows.
  func stackRows() throws -> [StackRecord]
}

/// One session's check, on every backend, by
/// ``InspectableJournal/verifyStorage(session:maxProblemsPerSession:)``: reads its snapshots and
/// entries in sequence order and walks them with a ``DeltaWalk``, collecting problems instead of
/// stopping at the first.
package struct SessionCheck {
  /// The largest sequence a journal holds. Appends never come near it; a row beyond it was put
  /// there by hand, and is reported instead of being counted on (the next entry after it, or
  /// the one before, would not be a number).
  package static let maximumSequence: Int64 = Int64.max / 2

  let session: SessionID
  let head: Int64
  let maxProblems: Int
  package private(set) var result: SessionVerification

  package init(session: SessionID, head: Int64, maxProblems: Int) {
    self.session = session
    self.head = head
    self.maxProblems = maxProblems
    self.result = SessionVerification(
      session: session, headSequence: head, baseSequence: 0, checkedEntries: 0,
      checkedSnapshots: 0, problems: [])
  }

  private var isFull: Bool { result.problems.count >= maxProblems }

  mutating func problem(
    _ sequence: Int64?, _ kind: VerificationProblem.Kind, _ message: String
  ) {
    result.problems.append(VerificationProblem(sequence: sequence, kind: kind, message: message))
  }

  /// Where a walk over the entries stands between two of them.
  package struct Walk {
    var deltas: DeltaWalk
    var base: Int64
    var pendingSnapshots: ArraySlice<Int64>
    var expected: Int64
    var deltasUsable = true
    var latestAt: String?
  }

  /// Checks the session's rows read through `rows`, all in the caller's transaction.
  package mutating func run(_ rows: some SessionRowSource) throws {
    let snapshots = try rows.snapshotSequences()
    guard let base = begin(snapshotSequences: snapshots),
      var walk = start(
        base: base, snapshotSequences: snapshots, snapshot: try rows.snapshot(at: base))
    else { return }
    try rows.entries { entry in
      let due = try snapshotToCompare(walk, at: entry.sequence).flatMap {
        try rows.snapshot(at: $0)
      }
      return visit(entry, &walk, snapshot: due)
    }
    try finish(walk, stackRows: try rows.stackRows())
  }

  /// The oldest snapshot's sequence, the walk's base, given the session's snapshots; `nil`
  /// when the walk cannot start (the problem is recorded).
  package mutating func begin(snapshotSequences: [Int64]) -> Int64? {
    guard head <= Self.maximumSequence else {
      problem(
        nil, .invalidData,
        "the session's head sequence \(head) is beyond \(Self.maximumSequence), the largest a "
          + "journal holds; its rows were not checked further")
      return nil
    }
    guard let base = snapshotSequences.first else {
      problem(nil, .snapshotMissing, "the session has no snapshot, not even its initial state")
      return nil
    }
    result.baseSequence = base
    if base > head {
      problem(base, .sequenceGap, "the oldest snapshot is past the head \(head)")
      return nil
    }
    return base
  }

  /// Starts the walk from the base snapshot; `nil` when its stacks cannot be read.
  package mutating func start(
    base: Int64, snapshotSequences: [Int64], snapshot: StoredSnapshotRow?
  ) -> Walk? {
    guard let baseStacks = snapshotStacks(base, snapshot) else { return nil }
    return Walk(
      deltas: DeltaWalk(base: base, stacks: baseStacks), base: base,
      pendingSnapshots: snapshotSequences.dropFirst()[...], expected: base + 1)
  }

  /// The sequence of the snapshot the walk compares after the entry at `sequence`, if any: the
  /// caller reads it before ``visit(_:_:snapshot:)``.
  package func snapshotToCompare(_ walk: Walk, at sequence: Int64) -> Int64? {
    guard walk.deltasUsable, sequence > walk.base, !isFull else { return nil }
    return walk.pendingSnapshots.contains(sequence) ? sequence : nil
  }

  /// Checks one entry, in sequence order, with the snapshot ``snapshotToCompare(_:at:)`` named;
  /// `false` once enough problems were found.
  package mutating func visit(
    _ entry: JournalRow, _ walk: inout Walk, snapshot: StoredSnapshotRow?
  ) -> Bool {
    guard !isFull else { return false }
    let sequence = entry.sequence
    result.checkedEntries += 1
    checkLatestTime(of: entry, after: &walk.latestAt)
    // Entries at or below the oldest snapshot are history the snapshot already holds.
    if sequence <= walk.base { return true }
    if sequence != walk.expected {
      problem(
        sequence, .sequenceGap,
        sequence > walk.expected
          ? "the journal skips from \(walk.expected - 1) to \(sequence)"
          : "the journal repeats sequence \(sequence)")
      walk.deltasUsable = false
    }
    walk.expected = sequence + 1
    checkFields(of: entry)
    guard walk.deltasUsable else { return true }
    do throws(DeltaWalk.Finding) {
      try walk.deltas.apply(entry: sequence, delta: entry.delta)
    } catch {
      switch error {
      case .unreadableDelta:
        problem(sequence, .invalidData, "the entry's delta cannot be read")
      case .inapplicableDelta(let message):
        problem(sequence, .inconsistentDelta, message)
      case .outOfSequence, .snapshotDiffers:
        problem(sequence, .sequenceGap, "the journal is out of sequence at \(sequence)")
      }
      walk.deltasUsable = false
      return true
    }
    while let pending = walk.pendingSnapshots.first, pending <= sequence {
      walk.pendingSnapshots = walk.pendingSnapshots.dropFirst()
      guard pending == sequence, let recorded = snapshotStacks(pending, snapshot) else {
        continue
      }
      do throws(DeltaWalk.Finding) {
        try walk.deltas.check(snapshot: recorded)
      } catch {
        if case .snapshotDiffers(let difference) = error {
          problem(
            sequence, .snapshotMismatch,
            "the snapshot's stacks differ from the journal's: \(difference)")
        }
      }
    }
    return true
  }

  /// Ends the walk, unless enough problems were found: the journal reaches the head, and the
  /// stack rows are the stacks there.
  package mutating func finish(_ walk: Walk, stackRows: @autoclosure () throws -> [StackRecord])
    rethrows
  {
    guard !isFull else { return }
    let stackRows = try stackRows()
    var deltasUsable = walk.deltasUsable
    if walk.expected <= head {
      problem(
        head, .sequenceGap,
        "the session's head is \(head) but the journal ends at \(walk.expected - 1)")
      deltasUsable = false
    } else if walk.expected > head + 1 {
      problem(
        walk.expected - 1, .sequenceGap,
        "the journal runs to \(walk.expected - 1), past the session's head \(head)")
      deltasUsable = false
    }
    for stack in stackRows {
      if let message = StackComparison.idProblem(stack) {
        problem(head, .idNotBelowNextID, "in the stack rows, \(message)")
      }
    }
    if deltasUsable, stackRows != walk.deltas.stacks {
      problem(
        head, .stackRowsMismatch,
        "the stack rows differ from the journal's stacks at the head: "
          + StackComparison.difference(walk.deltas.stacks, stackRows))
    }
  }

  /// Checks that an entry's stored latest time is the latest of its own and the entry before
  /// it (the first entry kept may carry a later one from entries a compaction removed): time
  /// lookups rely on it.
  private mutating func checkLatestTime(of entry: JournalRow, after previous: inout String?) {
    guard let latest = entry.latestAt else { return }
    let expected = Timestamp.latest(entry.recordedAt, after: previous ?? latest)
    if latest != expected {
      problem(
        entry.sequence, .invalidData,
        "the entry's latest time `\(latest)` is not `\(expected)`, the latest of its own time "
          + "and the entries' before it: finding entries by time would go wrong")
    }
    previous = latest
  }

  /// Checks an entry's time, payload, type and draws.
  private mutating func checkFields(of entry: JournalRow) {
    if let draws = entry.draws {
      do {
        _ = try EntryDraws(json: Data(draws.utf8), place: "the entry's draws")
      } catch let error as DrawRecordError {
        problem(entry.sequence, .invalidData, error.message)
      } catch {
        problem(entry.sequence, .invalidData, "the entry's draws cannot be read: \(error)")
      }
    }
    if Timestamp.date(from: entry.recordedAt) == nil {
      problem(entry.sequence, .invalidData, "the entry's time `\(entry.recordedAt)` is malformed")
    }
    if !JSONText.isJSON(entry.payload.utf8) {
      problem(entry.sequence, .invalidData, "the entry's payload is not valid JSON")
    } else if let message = ActionTypeCheck.mismatch(type: entry.type, payload: entry.payload) {
      problem(entry.sequence, .typeMismatch, message)
    }
  }

  /// Reads and checks the snapshot at `sequence`; its stacks, or `nil` when they cannot be read.
  private mutating func snapshotStacks(_ sequence: Int64, _ snapshot: StoredSnapshotRow?)
    -> [StackRecord]?
  {
    guard let snapshot else { return nil }
    let stateIsJSON = JSONText.isJSON(snapshot.state.utf8)
    if !stateIsJSON {
      problem(sequence, .invalidData, "the snapshot's state is not valid JSON")
    }
    if Timestamp.date(from: snapshot.recordedAt) == nil {
      problem(sequence, .invalidData, "the snapshot's time `\(snapshot.recordedAt)` is malformed")
    }
    guard let stacks = StackRecord.list(fromJSON: snapshot.stacks) else {
      problem(sequence, .invalidData, "the snapshot's stacks cannot be read")
      return nil
    }
    for stack in stacks {
      if let message = StackComparison.idProblem(stack) {
        problem(sequence, .idNotBelowNextID, "in the snapshot, \(message)")
      }
    }
    if stateIsJSON, let message = StateStacks.disagreement(state: snapshot.state, stacks: stacks) {
      problem(
        sequence, .snapshotStateMismatch, "the snapshot's state and stacks disagree: \(message)")
    }
    result.checkedSnapshots += 1
    return stacks
  }
}
