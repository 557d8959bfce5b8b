import Foundation
import StackNavigation

/// Encodes an application state for storage.
public enum StateEncoding {
  /// Encodes a state in one pass into its JSON document and the records of every stack in it.
  ///
  /// Each ``StackState`` in `state` reports itself to a ``StackEncodingCollector`` while the
  /// document is encoded, so the app never lists its stacks. Throws what the state's `encode(to:)`
  /// throws, and a ``StorageError`` with code ``StorageError/Code/duplicateStackPath`` when two
  /// stacks render to the same path.
  public static func encode<S: Encodable>(_ state: S) throws -> EncodedState {
    let collector = StackEncodingCollector()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.userInfo[StackEncodingCollector.userInfoKey] = collector
    let json = try encoder.encode(state)
    return EncodedState(json: json, stacks: try StackPath.records(from: collector.stacks))
  }
}
