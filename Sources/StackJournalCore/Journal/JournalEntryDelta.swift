import Foundation

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
  /// Encodes the whole state after the action, in place of ``snapshot``: the journal's append
  /// calls it when, and only when, it finds a snapshot due at the new sequence, before it
  /// suspends. A ``StackRestoration`` recorder sets it, so the decision is made once per append,
  /// by the journal. Only code of this package sets it.
  package var encodeSnapshot: (@Sendable () throws -> EncodedState)?
  /// When the action was recorded; stored with millisecond precision.
  public var recordedAt: Date
  /// Whether `payload` and the snapshot's JSON are what `JSONEncoder` wrote, as a
  /// ``StackRestoration`` recorder's are: a journal then stores them without parsing them again
  /// to check they are JSON. Only code of this package sets it; everything else is checked.
  package var isEncoderOutput = false

  /// Creates an entry.
  public init(
    type: String,
    version: Int,
    payload: Data,
    delta: StackDelta,
    snapshot: EncodedState? = nil,
    recordedAt: Date = Date()
  ) {
    self.type = type
    self.version = version
    self.payload = payload
    self.delta = delta
    self.snapshot = snapshot
    self.recordedAt = recordedAt
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
  /// The payload's text and, when a snapshot is due, the snapshot's state and stacks, as a
  /// journal stores them: the one place an append decides on its snapshot, from `snapshotDue`
  /// (``JournalBackend/snapshotDue(at:)`` of the new sequence), encoding the state through
  /// ``encodeSnapshot`` only then. `checked` turns JSON into text or throws; it is not called
  /// for what ``isEncoderOutput`` vouches for.
  package func storedTexts(
    snapshotDue: Bool,
    checked: (Data, _ what: String) throws -> String
  ) throws -> (payload: String, snapshot: (state: String, stacks: String)?) {
    // The names of the texts, for `checked`'s errors, are built only when it is called.
    try delta.checkSizes()
    let payload =
      isEncoderOutput
      ? String(decoding: self.payload, as: UTF8.self)
      : try checked(self.payload, "payload of the `\(type)` action")
    guard snapshotDue, let snapshot = try snapshot ?? encodeSnapshot?() else {
      return (payload, nil)
    }
    let state =
      isEncoderOutput
      ? String(decoding: snapshot.json, as: UTF8.self)
      : try checked(snapshot.json, "state after `\(type)`")
    return (payload, (state, StorageJSON.text(try StackRecord.canonical(snapshot.stacks))))
  }
}
