import StackJournalCore
import StackNavigation

/// Something restoration left out because the app's types could not read it. The stored rows
/// keep it: nothing is dropped from the database.
public struct SkippedItem: Equatable, Sendable, CustomStringConvertible {
  /// What was left out.
  public enum Kind: Equatable, Sendable {
    /// A stack element of the snapshot (and every element above it) did not decode.
    case element(stackPath: String, id: StackElementID)
    /// A journal entry whose action did not decode; its action was not replayed.
    case entry(sequence: Int64, type: String)
    /// A stack the journal recorded that has no place in the restored state (it sits in a
    /// part of the state that replay could not rebuild).
    case stack(path: String)
  }

  /// What was left out.
  public let kind: Kind
  /// Why: the decoding error.
  public let reason: String

  public var description: String {
    switch kind {
    case let .element(path, id):
      return "stack element \(id) of '\(path.isEmpty ? "(root)" : path)' (and above): \(reason)"
    case let .entry(sequence, type):
      return "entry \(sequence) (\(type)): \(reason)"
    case let .stack(path):
      return "stack '\(path.isEmpty ? "(root)" : path)': \(reason)"
    }
  }
}

/// A state restored from the journal, with how it was obtained.
public struct Restored<State> {
  /// The restored state.
  public let state: State
  /// The sequence the state is at.
  public let sequence: Int64
  /// The sequence of the snapshot replay started from.
  public let snapshotSequence: Int64
  /// How many journal actions were replayed through the reducer.
  public let replayedCount: Int
  /// What was left out because the app's types could not read it; empty when all decoded.
  public let skipped: [SkippedItem]
  /// Issues the reducer reported while replaying (for example an action for an element that a
  /// skipped entry would have pushed).
  public let replayIssues: [String]

  /// Whether the state is exactly the recorded one: nothing skipped, nothing reported.
  public var isComplete: Bool { skipped.isEmpty && replayIssues.isEmpty }
}

extension Restored: Sendable where State: Sendable {}
