import Foundation
import StackJournalCore
import StackNavigation

/// Rebuilds the state of a session at any moment: loads the nearest snapshot at or below the
/// target and replays the journal's actions through the app's reducer up to the target.
///
/// Replay runs reducers only: the effects they return are dropped (the actions those effects
/// sent are in the journal), so nothing reaches the outside world.
///
/// ```swift
/// let replayer = Replayer(journal: journal) { RootFeature() }
/// let restored = try await replayer.restore(session: id, at: .sequence(42))
/// restored.state.path.ids
/// ```
public struct Replayer<State: Codable, Action: Decodable> {
  /// The journal to read.
  public let journal: any JournalBackend
  let reducer: any Reducer<State, Action>
  /// The app's current payload version; newer payloads are refused.
  public let payloadVersion: Int
  /// The dependencies replay runs the reducer with: those in force where the replayer was
  /// created, with the drawing ones handing back each entry's journaled values.
  let dependencies: DependencyValues

  /// Creates a replayer for a journal and the app's reducer.
  public init<R: Reducer>(
    journal: any JournalBackend,
    payloadVersion: Int = 1,
    @ReducerBuilder<State, Action> reducer: () -> R
  ) where R.State == State, R.Action == Action {
    let dependencies = DependencyValues._current.journalingDraws()
    self.journal = journal
    self.payloadVersion = payloadVersion
    self.dependencies = dependencies
    self.reducer = DependencyValues.$_current.withValue(dependencies) { reducer() }
  }

  /// The sequence a target names in a session.
  public func sequence(of target: RestoreTarget, session: SessionID) async throws -> Int64 {
    let head = try await journal.headSequence(session: session)
    switch target {
    case .head:
      return head
    case let .sequence(sequence):
      guard (0...head).contains(sequence) else {
        throw RestorationError(
          code: .outOfRange,
          message:
            "Session '\(session)' has sequences 0…\(head); \(sequence) is not one of them.")
      }
      return sequence
    case let .date(date):
      return try await journal.sequence(session: session, atOrBefore: date)
    }
  }

  /// Restores a session at a moment of its history.
  ///
  /// When the app can no longer decode part of the history, restoration keeps what decodes and
  /// never hands out an ID twice:
  /// * stacks are cut at the first element that does not decode (elements above it go too);
  /// * replay stops at the first entry whose action does not decode; the stacks at the target
  ///   are then taken from the journal's own record of them (cut the same way), with the next
  ///   IDs it recorded, while the rest of the state stays as of the last replayed entry.
  ///
  /// ``Restored/skipped`` says exactly what was left out and why. The stored rows are never
  /// changed.
  ///
  /// - Parameters:
  ///   - session: The session to restore.
  ///   - target: The moment: the head, a sequence, or the last entry at or before a date.
  ///   - snapshotLimit: Start from a snapshot at or below this sequence instead of the
  ///     nearest one, e.g. `0` to replay the whole history (to measure it, or to check the
  ///     snapshots against a full replay).
  public func restore(
    session: SessionID,
    at target: RestoreTarget = .head,
    startingAtOrBelow snapshotLimit: Int64? = nil
  ) async throws -> Restored<State> {
    let sequence = try await self.sequence(of: target, session: session)
    let start = Swift.min(sequence, snapshotLimit ?? sequence)
    guard let snapshot = try await journal.snapshot(session: session, atOrBelow: start) else {
      throw StorageError(
        code: .snapshotMissing,
        message: """
          Session '\(session)' has no snapshot at or below sequence \(sequence): its history \
          below a later snapshot was compacted away. Restore a later sequence.
          """)
    }
    try checkVersion(snapshot.version, what: "the snapshot at sequence \(snapshot.sequence)")
    var (state, skipped) = try StateRepair.decode(
      State.self, from: snapshot.state, stacks: snapshot.stacks)
    var replayed = 0
    var stoppedAt: Int64?
    let issues = IssueCollector()
    var draws = try await drawReplay(session: session)
    var expected = snapshot.sequence + 1
    try await journal.entries(session: session, after: snapshot.sequence, through: sequence) {
      entry in
      try Self.requireNoGap(session: session, expected: expected, found: entry.sequence)
      expected = entry.sequence + 1
      if entry.type == RepairEntry.type {
        // What was left out before is superseded: the journal holds the state from here.
        (state, skipped) = try await repairedState(entry)
        stoppedAt = nil
      } else if let stoppedAt {
        try checkVersion(entry.version, what: "entry \(entry.sequence)")
        skipped.append(
          SkippedItem(
            kind: .entry(sequence: entry.sequence, type: entry.type),
            reason: "not replayed: it follows entry \(stoppedAt), whose action does not decode"))
      } else if let action = try decodeAction(entry, skipped: &skipped) {
        withIssueReporters([issues]) {
          for problem in draws.run(reducer, on: &state, action, entry).all {
            reportIssue("Entry \(entry.sequence) (\(entry.type)): \(problem)")
          }
        }
        replayed += 1
      } else {
        stoppedAt = entry.sequence
      }
      return true
    }
    if expected <= sequence {
      throw RestorationError(
        code: .journalGap,
        message: "Session '\(session)' has no journal entries after sequence \(expected - 1), but "
          + "sequence \(sequence) was asked for: the journal is cut short or its head is wrong. "
          + "Nothing was replayed past the gap; run `stackjournal verify` on the file.")
    }
    if stoppedAt != nil {
      let overlaid = try await overlayingRecordedStacks(on: state, session: session, at: sequence)
      state = overlaid.state
      skipped += overlaid.skipped.filter { item in !skipped.contains { $0.kind == item.kind } }
    }
    return Restored(
      state: state, sequence: sequence, snapshotSequence: snapshot.sequence,
      replayedCount: replayed, skipped: skipped, replayIssues: issues.messages)
  }

  /// Throws ``RestorationError/Code/journalGap`` when the entry read is not the one expected.
  static func requireNoGap(session: SessionID, expected: Int64, found: Int64) throws {
    guard found != expected else { return }
    throw RestorationError(
      code: .journalGap,
      message: "Session '\(session)' has a gap in its journal: entry \(found) follows entry "
        + "\(expected - 1). Replaying across it would show a state that never existed, so "
        + "nothing was replayed past it; run `stackjournal verify` on the file.")
  }

  /// Replaces the stacks of a state with the stacks the journal recorded at `sequence`, cut at
  /// the first element that does not decode.
  func overlayingRecordedStacks(
    on state: State,
    session: SessionID,
    at sequence: Int64
  ) async throws -> (state: State, skipped: [SkippedItem]) {
    let recorded = try await journal.stacks(session: session, at: sequence)
    let encoded = try StateEncoding.encode(state)
    // Stacks nested in an element come along with the element's recorded state.
    guard let (data, unplacedStacks) = StateStacks.overlaying(recorded, on: encoded.json) else {
      throw RestorationError(
        code: .encodingFailed,
        message: "\(State.self) encoded to text that is not JSON; the recorded stacks cannot be "
          + "written into it.")
    }
    let unplaced = unplacedStacks.map { stack in
      SkippedItem(
        kind: .stack(path: stack.path),
        reason: "the restored state has no place for it; its \(stack.elements.count) "
          + "element(s) stay in the journal")
    }
    let repaired = try StateRepair.decode(State.self, from: data, stacks: recorded)
    return (repaired.state, unplaced + repaired.skipped)
  }

  /// One step of a replay: the entry, the state after it, whether its action decoded, and what
  /// did not match in what its reducer drew.
  struct ReplayStep {
    var entry: JournalEntry
    var state: State
    var decoded: Bool
    var draws: DrawReplay.Problems
    /// What the reducer reported while it ran (an unimplemented dependency a draw missing from
    /// the journal fell back to, a child action for an absent child).
    var issues: [String]
    /// The dependencies the entry's reducer ran with, to run it again the same way.
    var dependencies: DependencyValues
    /// Whether the entry keeps what its reducer drew: false for one written before the journal
    /// kept draws, whose reducer drew afresh.
    var drawsJournaled: Bool
  }

  /// Replays the entries after `sequence` through `through`, starting from `state`, calling
  /// `body` after each entry.
  func replay(
    session: SessionID,
    from state: inout State,
    after sequence: Int64,
    through: Int64?,
    _ body: (ReplayStep) async throws -> Bool
  ) async throws {
    var skipped: [SkippedItem] = []
    var expected = sequence + 1
    var draws = try await drawReplay(session: session)
    try await journal.entries(session: session, after: sequence, through: through) { entry in
      try Self.requireNoGap(session: session, expected: expected, found: entry.sequence)
      expected = entry.sequence + 1
      if entry.type == RepairEntry.type {
        state = try await repairedState(entry).state
        return try await body(
          ReplayStep(
            entry: entry, state: state, decoded: true, draws: .init(), issues: [],
            dependencies: draws.values, drawsJournaled: true))
      }
      let action = try decodeAction(entry, skipped: &skipped)
      var problems = DrawReplay.Problems()
      let issues = IssueCollector()
      if let action {
        withIssueReporters([issues]) {
          problems = draws.run(reducer, on: &state, action, entry)
        }
      }
      return try await body(
        ReplayStep(
          entry: entry, state: state, decoded: action != nil, draws: problems,
          issues: issues.messages, dependencies: draws.values,
          drawsJournaled: entry.sequence >= draws.journaledFrom))
    }
  }

  /// Runs the reducer once on a state for an entry, with the entry's journaled draws and the
  /// dependencies of `step`, dropping the effect.
  func reduce(_ state: State, _ entry: JournalEntry, with dependencies: DependencyValues) async
    -> State?
  {
    if entry.type == RepairEntry.type { return try? await repairedState(entry).state }
    var skipped: [SkippedItem] = []
    guard let action = try? decodeAction(entry, skipped: &skipped) else { return nil }
    var state = state
    let draws = DrawReplay(values: dependencies, journaledFrom: 1)
    // What it reports was reported by the first run already.
    withIssueReporters([IssueCollector()]) {
      _ = draws.runJournaled(reducer, on: &state, action, entry.draws?.values ?? [])
    }
    return state
  }

  /// The replay of draws for a session: from the sequence its journal keeps draws.
  func drawReplay(session: SessionID) async throws -> DrawReplay {
    DrawReplay(values: dependencies, journaledFrom: try await drawsJournaledFrom(session))
  }

  /// The first sequence of the session whose entries keep what their reducer drew.
  func drawsJournaledFrom(_ session: SessionID) async throws -> Int64 {
    try await journal.session(session)?.drawsJournaledFrom ?? 1
  }

  /// The state a repair entry holds, with what of it no longer decodes.
  func repairedState(_ entry: JournalEntry) async throws
    -> (state: State, skipped: [SkippedItem])
  {
    let recorded = try await journal.stacks(session: entry.session, at: entry.sequence)
    return try StateRepair.decode(State.self, from: RepairEntry.state(of: entry), stacks: recorded)
  }

  func decodeAction(_ entry: JournalEntry, skipped: inout [SkippedItem]) throws -> Action? {
    try checkVersion(entry.version, what: "entry \(entry.sequence)")
    do {
      return try JSONDecoder().decode(Action.self, from: entry.payload)
    } catch let error as DecodingError {
      skipped.append(
        SkippedItem(
          kind: .entry(sequence: entry.sequence, type: entry.type),
          reason: StateRepair.describe(error)))
      return nil
    }
  }

  func checkVersion(_ version: Int, what: String) throws {
    guard version <= payloadVersion else {
      throw RestorationError(
        code: .newerPayloadVersion,
        message: """
          \(what.prefix(1).uppercased() + what.dropFirst()) was written with payload version \
          \(version), newer than this app's version \(payloadVersion). Restore it with the newer \
          app; nothing was changed.
          """)
    }
  }
}

/// The moment of a session's history to restore.
public enum RestoreTarget: Sendable, Equatable {
  /// After the last entry.
  case head
  /// After the entry with this sequence number (0 is the initial state).
  case sequence(Int64)
  /// After the last entry recorded at or before this date.
  case date(Date)
}

/// Runs a reducer for journaled entries the way it ran when they were recorded: with the values
/// each entry's run drew, handed back in order, and in the environment (`\.timeZone`, `\.locale`,
/// `\.calendar`) the journal last recorded.
struct DrawReplay {
  /// The dependencies the reducer runs with.
  private(set) var values: DependencyValues
  /// The first sequence whose entry keeps its draws; earlier entries were recorded before the
  /// journal kept them and draw fresh values.
  let journaledFrom: Int64

  init(values: DependencyValues, journaledFrom: Int64) {
    self.values = values
    self.journaledFrom = journaledFrom
  }

  /// What did not match in one entry's run.
  struct Problems: Equatable, Sendable {
    /// Draws the journal does not hold, or holds of another kind: the reducer drew from
    /// something the journal did not keep.
    var unjournaled: [String] = []
    /// Journaled values the reducer did not ask for, and an environment that cannot be set.
    var other: [String] = []

    var all: [String] { unjournaled + other }
  }

  /// Runs the reducer for `entry`'s action.
  mutating func run<State, Action>(
    _ reducer: any Reducer<State, Action>, on state: inout State, _ action: Action,
    _ entry: JournalEntry
  ) -> Problems {
    guard entry.sequence >= journaledFrom else {
      // Recorded before the journal kept draws: what the reducer draws is fresh.
      _ = DependencyValues.$_current.withValue(values) {
        reducer.reduce(into: &state, action: action)
      }
      return Problems()
    }
    var problems = Problems()
    if let environment = entry.draws?.environment {
      do {
        try environment.apply(to: &values)
      } catch {
        problems.other.append("the recorded environment cannot be set here: \(error)")
      }
    }
    let run = runJournaled(reducer, on: &state, action, entry.draws?.values ?? [])
    problems.unjournaled += run.unjournaled
    problems.other += run.other
    return problems
  }

  /// Runs the reducer handing back `journaled`, in order.
  func runJournaled<State, Action>(
    _ reducer: any Reducer<State, Action>, on state: inout State, _ action: Action,
    _ journaled: [DependencyDraw]
  ) -> Problems {
    let capture = DrawCapture.replaying(journaled)
    _ = DependencyValues.$_current.withValue(values) {
      capture.run { reducer.reduce(into: &state, action: action) }
    }
    return Problems(unjournaled: capture.unjournaledDraws, other: capture.unusedDraws)
  }
}
