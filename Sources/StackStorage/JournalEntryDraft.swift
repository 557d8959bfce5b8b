import Foundation

/// An action about to be appended to a journal, with the state it led to.
///
/// The journal computes what the action did to the stacks itself, from the stacks at the
/// session's head and ``state``, so a caller cannot record a delta that does not match.
public struct JournalEntryDraft: Sendable {
  /// The action's case path, e.g. `path.element.counter.incrementButtonTapped`.
  public var type: String
  /// The version of the app's state/action encoding the payload is written in.
  public var version: Int
  /// The action as JSON (UTF-8); the journal refuses bytes that are not one JSON value.
  public var payload: Data
  /// The state after the action: the after-side of the delta, and the state of a snapshot.
  public var state: EncodedState
  /// When the action was recorded; stored with millisecond precision.
  public var recordedAt: Date

  /// Creates a draft.
  public init(
    type: String,
    version: Int,
    payload: Data,
    state: EncodedState,
    recordedAt: Date = Date()
  ) {
    self.type = type
    self.version = version
    self.payload = payload
    self.state = state
    self.recordedAt = recordedAt
  }
}
