import Foundation
import StackNavigation

/// Encodes an application state for storage.
public enum StateEncoding {
  /// Encodes a state into its JSON document and the records of every stack in it.
  ///
  /// The stacks are found by the one walk that finds them for a ``StackTracker`` (each
  /// `StackState` and route in `state` hands itself to it), so the app never lists its stacks.
  /// The walk uses an encoder that keeps exact coding paths (Foundation's `JSONEncoder` drops
  /// the keys of nested containers from them); the elements and the document are written by
  /// `SortedJSONEncoder` (what `JSONEncoder` writes with sorted keys), as a recording store
  /// writes them, so that replayed and recorded stacks compare alike.
  ///
  /// Throws what the state's `encode(to:)` throws, and a ``StorageError`` with code
  /// ``StorageError/Code/duplicateStackPath`` when two stacks render to the same path.
  public static func encode<S: Encodable>(_ state: S) throws -> EncodedState {
    let encoder = SortedJSONEncoder()
    let walk = StackWalk(previous: [:], encoder: encoder)
    try walk.run(state)
    return EncodedState(json: try encoder.encode(state), stacks: try walk.sortedRecords())
  }
}
