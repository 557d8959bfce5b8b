import Foundation
import StackNavigation

/// Encodes an application state for storage.
public enum StateEncoding {
  /// Encodes a state into its JSON document and the records of every stack in it.
  ///
  /// Each ``StackState`` in `state` reports itself to a ``StackEncodingCollector`` while the
  /// state is walked, so the app never lists its stacks. The walk uses an encoder that keeps
  /// exact coding paths (Foundation's `JSONEncoder` drops the keys of nested containers from
  /// them); the elements and the document are written by `SortedJSONEncoder` (what
  /// `JSONEncoder` writes with sorted keys), as a recording store writes them, so that replayed
  /// and recorded stacks compare alike.
  ///
  /// Throws what the state's `encode(to:)` throws, and a ``StorageError`` with code
  /// ``StorageError/Code/duplicateStackPath`` when two stacks render to the same path.
  public static func encode<S: Encodable>(_ state: S) throws -> EncodedState {
    let encoder = SortedJSONEncoder()
    let collector = StackEncodingCollector(encodeElement: { try encoder.encode($0) })
    try state.encode(
      to: CodingPathEncoder(
        codingPath: [], userInfo: [StackEncodingCollector.userInfoKey: collector]))
    let json = try encoder.encode(state)
    return EncodedState(json: json, stacks: try StackRecord.records(from: collector.stacks))
  }
}
