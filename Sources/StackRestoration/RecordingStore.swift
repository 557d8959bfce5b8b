import Foundation
import StackJournalCore
import StackNavigation

/// A `StackNavigation.Store` that journals every action it processes.
///
/// Every action — sent by a caller or by an effect — is appended to the session's journal with
/// what it did to the stacks, in order, in the same transaction as the stack rows. An action is
/// kept only once it is in the journal: when the append fails (a full disk, another writer),
/// `send` throws and the state stays as it was. When the sent action is journaled but an action
/// its effects send at once cannot be, `send` throws `StackNavigation.FollowUpActionRejected`:
/// the state and the journal then both hold the sent action, and not the rejected one.
///
/// ```swift
/// let journal = try SQLiteJournal(path: "navigation.sqlite")
/// let store = try await RecordingStore.open(
///   session: "user-42", journal: journal, initialState: RootFeature.State()
/// ) {
///   RootFeature()
/// }
/// try await store.send(.pushCounterTapped(count: 1))
/// ```
public final class RecordingStore<State: Codable & Sendable, Action: Codable & Sendable>: Sendable {
  /// The session this store records into.
  public let session: SessionID
  /// The underlying store.
  public let store: Store<State, Action>
  /// What restoration left out when the session was opened; empty for a faithful restore.
  public let restoration: Restored<State>?
  private let recorder: Recorder

  /// Opens a session: rehydrates its head when it exists, otherwise creates it from
  /// `initialState`, recorded as sequence 0.
  ///
  /// - Parameters:
  ///   - session: The session to open or create.
  ///   - journal: The journal that holds it: SQLite, PostgreSQL or any other backend.
  ///   - initialState: The state of a new session; not evaluated when the session exists.
  ///   - payloadVersion: The version of the app's state and action encoding, stored with every
  ///     entry; journals written by a newer version are refused.
  ///   - acceptingIncompleteRestore: What to do when the session's history no longer fully
  ///     decodes (the app's types changed): `false` (the default) refuses with
  ///     ``RestorationError/Code/incompleteRestore`` and changes nothing; `true` continues from
  ///     what decodes, after writing a `stackjournal.repair` entry (and a snapshot) that records
  ///     what was left out — so the journal never attributes the loss to a user's action.
  ///   - metadata: JSON kept with a new session (its `SessionInfo` shows it); ignored when the
  ///     session exists.
  ///   - reducer: The feature the store runs, and replays to restore the session.
  ///   - onRecorded: Sees every action once it is in the journal, with its sequence and the
  ///     state before and after.
  ///   - onEffectFailure: Receives actions sent by effects that could not be journaled; they
  ///     were not applied.
  public static func open<R: Reducer>(
    session: SessionID,
    journal: any JournalBackend,
    initialState: @autoclosure () -> State,
    payloadVersion: Int = 1,
    metadata: Data? = nil,
    acceptingIncompleteRestore: Bool = false,
    @ReducerBuilder<State, Action> reducer: @escaping () -> R,
    onRecorded: (@Sendable (Int64, StoreTransition<State, Action>) -> Void)? = nil,
    onEffectFailure: (@Sendable (Action, any Error) -> Void)? = nil
  ) async throws -> RecordingStore where R.State == State, R.Action == Action {
    if try await journal.session(session) != nil {
      let restored = try await Replayer<State, Action>(
        journal: journal, payloadVersion: payloadVersion, reducer: reducer
      ).restore(session: session, at: .head)
      var sequence = restored.sequence
      var stored = try await journal.headStacks(session: session)
      if !restored.skipped.isEmpty {
        guard acceptingIncompleteRestore else {
          throw RestorationError(
            code: .incompleteRestore,
            message: """
              Session '\(session)' no longer fully decodes with this app's types; nothing was \
              changed. Left out:
              \(restored.skipped.map { "  " + $0.description }.joined(separator: "\n"))
              Register upcasters, or open with `acceptingIncompleteRestore: true` to continue \
              from what decodes.
              """)
        }
        (sequence, stored) = try await writeRepair(
          session: session, journal: journal, restored: restored, stored: stored,
          payloadVersion: payloadVersion)
      }
      return try RecordingStore(
        session: session, journal: journal, state: restored.state, stored: stored,
        sequence: sequence,
        payloadVersion: payloadVersion, reducer: reducer, restoration: restored,
        onRecorded: onRecorded, onEffectFailure: onEffectFailure)
    }
    let state = initialState()
    let initial = try encode(state)
    _ = try await journal.createSession(
      session, initial: initial, version: payloadVersion, metadata: metadata, forkedFrom: nil)
    return try RecordingStore(
      session: session, journal: journal, state: state, stored: initial.stacks, sequence: 0,
      payloadVersion: payloadVersion, reducer: reducer, restoration: nil,
      onRecorded: onRecorded, onEffectFailure: onEffectFailure)
  }

  /// Starts a new session from another session's state at a sequence, leaving the original
  /// untouched: time travel without losing the future.
  public static func fork<R: Reducer>(
    _ source: SessionID,
    at target: RestoreTarget,
    into newSession: SessionID,
    journal: any JournalBackend,
    payloadVersion: Int = 1,
    @ReducerBuilder<State, Action> reducer: @escaping () -> R,
    onRecorded: (@Sendable (Int64, StoreTransition<State, Action>) -> Void)? = nil,
    onEffectFailure: (@Sendable (Action, any Error) -> Void)? = nil
  ) async throws -> RecordingStore where R.State == State, R.Action == Action {
    let restored = try await Replayer<State, Action>(
      journal: journal, payloadVersion: payloadVersion, reducer: reducer
    ).restore(session: source, at: target)
    let initial = try encode(restored.state)
    _ = try await journal.createSession(
      newSession, initial: initial, version: payloadVersion, metadata: nil,
      forkedFrom: (source, restored.sequence))
    return try RecordingStore(
      session: newSession, journal: journal, state: restored.state, stored: initial.stacks,
      sequence: 0,
      payloadVersion: payloadVersion, reducer: reducer, restoration: restored,
      onRecorded: onRecorded, onEffectFailure: onEffectFailure)
  }

  private init<R: Reducer>(
    session: SessionID,
    journal: any JournalBackend,
    state: State,
    stored: [StackRecord],
    sequence: Int64,
    payloadVersion: Int,
    reducer: @escaping () -> R,
    restoration: Restored<State>?,
    onRecorded: (@Sendable (Int64, StoreTransition<State, Action>) -> Void)?,
    onEffectFailure: (@Sendable (Action, any Error) -> Void)?
  ) throws where R.State == State, R.Action == Action {
    let recorder = Recorder(
      session: session, journal: journal, sequence: sequence, payloadVersion: payloadVersion,
      dependencies: DependencyValues._current)
    try recorder.start(from: state, stored: stored)
    self.session = session
    self.recorder = recorder
    self.restoration = restoration
    // The reducer runs for every action with the dependencies in force here, what it draws from
    // them journaled with each entry: the store sets them around each run, where they override
    // what a reducer's `@Dependency` kept from its creation.
    let drawing = DependencyValues._current.journalingDraws()
    let built = reducer()
    self.store = Store(
      initialState: state,
      reducer: { built },
      drawingWith: drawing,
      observer: { transition in
        let sequence = try await recorder.record(transition)
        onRecorded?(sequence, transition)
      },
      onEffectFailure: onEffectFailure)
  }

  /// Sends an action; returns once it and the actions its effects sent right away are in the
  /// journal.
  @discardableResult
  public func send(_ action: Action) async throws -> StoreTask {
    try await store.send(action)
  }

  /// The current state.
  public var state: State {
    get async { await store.state }
  }

  /// The sequence of the last journaled action.
  public var sequence: Int64 { recorder.sequence }

  /// Waits until no effect is running.
  public func waitForEffects() async {
    await store.waitForEffects()
  }

  /// Appends a repair entry holding the restored state, and a snapshot of it; returns its
  /// sequence and the stacks the journal then holds.
  static func writeRepair(
    session: SessionID,
    journal: any JournalBackend,
    restored: Restored<State>,
    stored: [StackRecord],
    payloadVersion: Int
  ) async throws -> (sequence: Int64, stacks: [StackRecord]) {
    let state = try encode(restored.state)
    let entry = try JournalEntryDelta(
      type: RepairEntry.type, version: payloadVersion,
      payload: try RepairEntry.payload(skipped: restored.skipped, state: state), from: stored,
      to: state)
    let sequence = try await journal.append(
      session: session, expectedSequence: restored.sequence, entry)
    try await journal.writeSnapshot(
      session: session, sequence: sequence, state: state, version: payloadVersion)
    return (sequence, entry.snapshot?.stacks ?? state.stacks)
  }

  static func encode(_ state: State) throws -> EncodedState {
    do {
      return try StateEncoding.encode(state)
    } catch {
      throw RestorationError.stateNotEncoded(error)
    }
  }
}

/// Appends each transition of a store to the journal, in order.
///
/// A ``StackTracker`` started from the store's state and the journal's stacks for it computes
/// each delta from the stacks before and after, encoding only the elements that were pushed or
/// changed, and the whole state only when the journal is due for a snapshot.
///
/// What the reducer drew goes with the entry. The environment it ran in (`\.timeZone`,
/// `\.locale`, `\.calendar`) goes with the first entry this recorder appends, with an entry
/// whose environment differs from the last one recorded, and with the entry after each
/// snapshot, so that a replay starting at any snapshot meets it before its first reducer run.
final class Recorder: @unchecked Sendable {
  let session: SessionID
  let journal: any JournalBackend
  let payloadVersion: Int
  private let head: LockIsolated<Int64>
  // Used by `record` only, which the store calls for one transition at a time.
  private let tracker = StackTracker()
  private let encoder = SortedJSONEncoder()
  /// The time zone, locale and calendar the store's reducer runs with, whose record goes with
  /// the entries (read from the dependencies once: reading them is most of what it costs).
  private let environmentValues: (TimeZone, Locale, Calendar)
  /// The environment last recorded, or `nil` when the next entry must record it.
  private var recordedEnvironment: RecordedEnvironment?

  init(
    session: SessionID, journal: any JournalBackend, sequence: Int64, payloadVersion: Int,
    dependencies: DependencyValues
  ) {
    self.session = session
    self.journal = journal
    self.payloadVersion = payloadVersion
    self.head = LockIsolated(sequence)
    self.environmentValues = RecordedEnvironment.values(of: dependencies)
  }

  var sequence: Int64 { head.value }

  /// Starts following the stacks from `state`, which the journal holds as `stored`.
  func start<State: Encodable>(from state: State, stored: [StackRecord]) throws {
    do {
      try tracker.start(from: state, stored: stored)
    } catch {
      throw RestorationError.stateNotEncoded(error)
    }
  }

  /// Appends a transition to the journal and returns its sequence. The store calls it for one
  /// transition at a time. Suspends while the journal commits when the journal can (a group
  /// commit's batch), so other stores' appends join the same batch.
  func record<State: Encodable, Action: Encodable>(
    _ transition: StoreTransition<State, Action>
  ) async throws -> Int64 {
    let type = _JournalCaseName.of(typed: transition.action)
    let expected = head.value
    let payload = try encoding(type) { try encoder.encode(transition.action) }
    let step = try encoding(type) { try tracker.step(to: transition.stateAfter) }
    // The one decision of the append, asked of the journal here so the whole state is encoded
    // only when a snapshot is due; the entry tells the journal it was made.
    var snapshot: EncodedState?
    if journal.snapshotDue(at: expected + 1) {
      let json = try encoding(type) { try encoder.encode(transition.stateAfter) }
      snapshot = EncodedState(json: json, stacks: step.stacks)
    }
    let environment = RecordedEnvironment(
      timeZone: environmentValues.0, locale: environmentValues.1, calendar: environmentValues.2)
    let newEnvironment = environment == recordedEnvironment ? nil : environment
    var entry = JournalEntryDelta(
      type: type, version: payloadVersion, payload: payload, delta: step.delta,
      snapshot: snapshot,
      draws: EntryDraws(values: transition.draws, environment: newEnvironment))
    entry.isEncoderOutput = true
    entry.snapshotDecided = true
    let sequence = try await journal.append(
      session: session, expectedSequence: expected, entry)
    tracker.accept(step)
    head.setValue(sequence)
    recordedEnvironment = snapshot == nil ? environment : nil
    return sequence
  }

  private func encoding<T>(_ type: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch {
      throw RestorationError(
        code: .encodingFailed, message: "The action \(type) could not be encoded: \(error)")
    }
  }
}

extension RestorationError {
  /// A store's state that could not be encoded for the journal.
  static func stateNotEncoded(_ error: any Error) -> RestorationError {
    RestorationError(
      code: .encodingFailed, message: "The state could not be encoded for the journal: \(error)")
  }
}
