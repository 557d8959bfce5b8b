import Foundation
import GRDB

/// One session's check by ``JournalVerifier``: reads its snapshots and entries in sequence order
/// and walks them with a ``DeltaWalk``, collecting problems instead of stopping at the first.
struct SessionCheck {
  let session: SessionID
  let head: Int64
  let maxProblems: Int
  private(set) var result: SessionVerification

  init(session: SessionID, head: Int64, maxProblems: Int) {
    self.session = session
    self.head = head
    self.maxProblems = maxProblems
    self.result = SessionVerification(
      session: session, headSequence: head, baseSequence: 0, checkedEntries: 0,
      checkedSnapshots: 0, problems: [])
  }

  private var isFull: Bool { result.problems.count >= maxProblems }

  private mutating func problem(
    _ sequence: Int64?, _ kind: VerificationProblem.Kind, _ message: String
  ) {
    result.problems.append(VerificationProblem(sequence: sequence, kind: kind, message: message))
  }

  mutating func run(_ db: Database) throws {
    // The snapshots' sequences; each snapshot's stacks are read when the walk reaches it.
    let snapshotSequences = try Int64.fetchAll(
      db, sql: "SELECT sequence FROM snapshots WHERE session = ? ORDER BY sequence",
      arguments: [session.rawValue])
    guard let base = snapshotSequences.first else {
      problem(nil, .snapshotMissing, "the session has no snapshot, not even its initial state")
      return
    }
    result.baseSequence = base
    if base > head {
      problem(base, .sequenceGap, "the oldest snapshot is past the head \(head)")
      return
    }
    guard let baseStacks = try snapshotStacks(base, db) else { return }
    var walk = DeltaWalk(base: base, stacks: baseStacks)
    var pendingSnapshots = snapshotSequences.dropFirst()[...]
    var expected = base + 1
    var deltasUsable = true
    let entries = try EntryRecord.fetchCursor(
      db,
      sql: "SELECT \(EntryRecord.columns) FROM journal WHERE session = ? ORDER BY sequence",
      arguments: [session.rawValue])
    while let entry = try entries.next(), !isFull {
      let sequence = entry.sequence
      result.checkedEntries += 1
      // Entries at or below the oldest snapshot are history the snapshot already holds.
      if sequence <= base { continue }
      if sequence != expected {
        problem(
          sequence, .sequenceGap,
          sequence > expected
            ? "the journal skips from \(expected - 1) to \(sequence)"
            : "the journal repeats sequence \(sequence)")
        deltasUsable = false
      }
      expected = sequence + 1
      checkFields(of: entry)
      guard deltasUsable else { continue }
      do {
        try walk.apply(entry: sequence, delta: entry.delta)
      } catch {
        switch error {
        case .unreadableDelta:
          problem(sequence, .invalidData, "the entry's delta cannot be read")
        case .inapplicableDelta(let message):
          problem(sequence, .inconsistentDelta, message)
        case .outOfSequence, .snapshotDiffers:
          problem(sequence, .sequenceGap, "the journal is out of sequence at \(sequence)")
        }
        deltasUsable = false
        continue
      }
      while let snapshot = pendingSnapshots.first, snapshot <= sequence {
        pendingSnapshots = pendingSnapshots.dropFirst()
        guard snapshot == sequence, let recorded = try snapshotStacks(snapshot, db) else {
          continue
        }
        do {
          try walk.check(snapshot: recorded)
        } catch {
          if case .snapshotDiffers(let difference) = error {
            problem(
              sequence, .snapshotMismatch,
              "the snapshot's stacks differ from the journal's: \(difference)")
          }
        }
      }
    }
    if isFull { return }
    if expected <= head {
      problem(
        head, .sequenceGap,
        "the session's head is \(head) but the journal ends at \(expected - 1)")
      deltasUsable = false
    } else if expected > head + 1 {
      problem(
        expected - 1, .sequenceGap,
        "the journal runs to \(expected - 1), past the session's head \(head)")
      deltasUsable = false
    }
    let rows = try StackRows.load(db, session: session.rawValue)
    for stack in rows {
      if let message = StackComparison.idProblem(stack) {
        problem(head, .idNotBelowNextID, "in the stack rows, \(message)")
      }
    }
    if deltasUsable, rows != walk.stacks {
      problem(
        head, .stackRowsMismatch,
        "the stack rows differ from the journal's stacks at the head: "
          + StackComparison.difference(walk.stacks, rows))
    }
  }

  /// Checks an entry's time, payload and type.
  private mutating func checkFields(of entry: EntryRecord) {
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
  private mutating func snapshotStacks(_ sequence: Int64, _ db: Database) throws
    -> [StackRecord]?
  {
    let snapshot = try SnapshotRecord.fetchOne(
      db,
      sql: "SELECT \(SnapshotRecord.columns) FROM snapshots WHERE session = ? AND sequence = ?",
      arguments: [session.rawValue, sequence])
    guard let snapshot else { return nil }
    let stateIsJSON = JSONText.isJSON(snapshot.state.utf8)
    if !stateIsJSON {
      problem(sequence, .invalidData, "the snapshot's state is not valid JSON")
    }
    if Timestamp.date(from: snapshot.recordedAt) == nil {
      problem(sequence, .invalidData, "the snapshot's time `\(snapshot.recordedAt)` is malformed")
    }
    guard
      let stacks = try? JSONDecoder().decode(
        [StackRecord].self, from: Data(snapshot.stacks.utf8))
    else {
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
