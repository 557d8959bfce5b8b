import Foundation
import StackNavigation

/// An action about to be appended to a journal with what it did to the stacks, computed by the
/// caller (a ``StackTracker``) instead of by the journal from the whole state.
///
/// The journal checks the delta against its stack rows as it applies them — a pop or change of
/// an element it does not hold, a push of one it holds, a next ID that goes back — and refuses the append, writing nothing, when it does not fit.
public struct JournalEntryDelta: Sendable {
  /// The action's case path, e.g. `path.element.counter.incrementButtonTapped`.
  public var type: String
  /// The version of the app's state/action encoding the payload is written in.
  public var version: Int
  /// The action as JSON (UTF-8); the journal refuses bytes that are not one JSON value.
  public var payload: Data
  /// What the action did to the stacks.
  public var delta: StackDelta
  /// The whole state after the action: needed when ``JournalBackend/snapshotDue(at:)`` says a
  /// snapshot is due at the new sequence, ignored otherwise.
  public var snapshot: EncodedState?
  /// When the action was recorded; stored with millisecond precision.
  public var recordedAt: Date
  /// What the reducer drew from its dependencies for the action, and the environment it ran in
  /// when that changed; `nil` (stored as nothing) when there is neither.
  public var draws: EntryDraws?
  /// Whether `payload` and the snapshot's JSON are what `JSONEncoder` wrote, as a
  /// ``StackRestoration`` recorder's are: a journal then stores them without parsing them again
  /// to check they are JSON. Only code of this package sets it; everything else is checked.
  package var isEncoderOutput = false
  /// Whether the caller asked the journal's ``JournalBackend/snapshotDue(at:)`` for the new
  /// sequence before making the entry, and gave ``snapshot`` exactly when it is due, as a
  /// ``StackRestoration`` recorder does to encode the whole state only then: the append then
  /// takes that answer instead of deciding again, so the decision is made once per append. Only
  /// code of this package sets it.
  package var snapshotDecided = false

  /// Creates an entry.
  public init(
    type: String,
    version: Int,
    payload: Data,
    delta: StackDelta,
    snapshot: EncodedState? = nil,
    recordedAt: Date = Date(),
    draws: EntryDraws? = nil
  ) {
    self.type = type
    self.version = version
    self.payload = payload
    self.delta = delta
    self.snapshot = snapshot
    self.recordedAt = recordedAt
    self.draws = draws?.isEmpty == true ? nil : draws
  }

  /// Creates an entry for an action that led from stacks a journal holds, `before` (its head's
  /// stacks), to `state`: the delta between them, and the state as the snapshot. Throws when
  /// `state` lists two stacks at one path or a stack that is too large.
  public init(
    type: String,
    version: Int,
    payload: Data,
    from before: [StackRecord],
    to state: EncodedState,
    recordedAt: Date = Date()
  ) throws {
    let after = try StackRecord.canonical(state.stacks)
    let delta = StackDelta.between(before.sorted { $0.path < $1.path }, after)
    self.init(
      type: type, version: version, payload: payload, delta: delta,
      snapshot: EncodedState(json: state.json, stacks: after),
      recordedAt: recordedAt)
  }
}

extension JournalEntryDelta {
  /// The journal's rule: an entry gets a snapshot when its sequence is a multiple of the
  /// interval; an interval of 0 never does.
  package static func snapshotDue(at sequence: Int64, interval: Int) -> Bool {
    let interval = Int64(interval)
    return interval > 0 && sequence > 0 && sequence % interval == 0
  }

  /// The payload's text and, when a snapshot is due at `sequence`, the snapshot's state and
  /// stacks, as a journal stores them: the one place an append settles its snapshot, for both
  /// engines. The journal's rule (``JournalBackend/snapshotDue(at:)`` with its
  /// `snapshotInterval`) is applied only when the entry does not carry the answer already
  /// (``snapshotDecided``). `checked` turns JSON into text or throws; it is not called for what
  /// ``isEncoderOutput`` vouches for.
  package func storedTexts(
    sequence: Int64,
    snapshotInterval: Int,
    checked: (Data, _ what: String) throws -> String
  ) throws -> (payload: String, snapshot: (state: String, stacks: String)?) {
    // The names of the texts, for `checked`'s errors, are built only when it is called.
    try delta.checkSizes()
    let payload =
      isEncoderOutput
      ? String(decoding: self.payload, as: UTF8.self)
      : try checked(self.payload, "payload of the `\(type)` action")
    guard let snapshot,
      snapshotDecided
        || JournalEntryDelta.snapshotDue(at: sequence, interval: snapshotInterval)
    else { return (payload, nil) }
    let state =
      isEncoderOutput
      ? String(decoding: snapshot.json, as: UTF8.self)
      : try checked(snapshot.json, "state after `\(type)`")
    return (payload, (state, StorageJSON.text(try StackRecord.canonical(snapshot.stacks))))
  }
}
