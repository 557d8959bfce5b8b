import Foundation

/// A state encoded once: the whole document and, for every stack inside it, its rows.
///
/// Made by ``StateEncoding/encode(_:)``.
public struct EncodedState: Equatable, Sendable {
  /// The whole state as JSON with sorted keys.
  public var json: Data
  /// Every stack in the state, nested ones included, sorted by path.
  public var stacks: [StackRecord]

  /// Creates an encoded state from its parts.
  public init(json: Data, stacks: [StackRecord]) {
    self.json = json
    self.stacks = stacks
  }
}
