import Foundation
import StackStorage

/// An action with the whole state it led to, as tests write one: appended as the delta from the
/// session's head stacks to the state's.
public struct JournalEntryDraft: Sendable {
  /// The action's case path.
  public var type: String
  /// The version of the app's state/action encoding the payload is written in.
  public var version: Int
  /// The action as JSON (UTF-8).
  public var payload: Data
  /// The state after the action.
  public var state: EncodedState
  /// When the action was recorded.
  public var recordedAt: Date

  /// Creates a draft.
  public init(
    type: String, version: Int, payload: Data, state: EncodedState, recordedAt: Date = Date()
  ) {
    self.type = type
    self.version = version
    self.payload = payload
    self.state = state
    self.recordedAt = recordedAt
  }
}

extension JournalBackend {
  /// Appends `draft` after `expectedSequence`: the delta from the head's stacks, read first, to
  /// the draft's state.
  @discardableResult
  public func append(
    session: SessionID, expectedSequence: Int64, _ draft: JournalEntryDraft
  ) async throws -> Int64 {
    let head = try await headStacks(session: session)
    let entry = try JournalEntryDelta(
      type: draft.type, version: draft.version, payload: draft.payload, from: head,
      to: draft.state, recordedAt: draft.recordedAt)
    return try await append(session: session, expectedSequence: expectedSequence, entry)
  }
}
