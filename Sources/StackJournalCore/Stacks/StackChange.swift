import StackNavigation

/// What one action did to one stack.
///
/// A stack that appears lists every element as pushed; a stack that disappears (its parent
/// element was popped, say) has ``removed`` set and lists its IDs as popped.
public struct StackChange: Equatable, Sendable, Codable {
  /// The path of the stack in the state, as in ``StackRecord/path``.
  public var path: String
  /// The generation the stack hands out next, after the action.
  public var nextID: StackElementID
  /// The IDs of the stack after the action, bottom first.
  public var ids: [StackElementID]
  /// The elements that entered the stack, with their IDs and state.
  public var pushed: [StoredElement]
  /// The IDs that left the stack.
  public var popped: [StackElementID]
  /// The elements that stayed in the stack but whose state changed, with their new state.
  public var changed: [StoredElement]
  /// Whether the stack itself is gone from the state.
  public var removed: Bool

  /// Creates a change.
  public init(
    path: String,
    nextID: StackElementID,
    ids: [StackElementID],
    pushed: [StoredElement] = [],
    popped: [StackElementID] = [],
    changed: [StoredElement] = [],
    removed: Bool = false
  ) {
    self.path = path
    self.nextID = nextID
    self.ids = ids
    self.pushed = pushed
    self.popped = popped
    self.changed = changed
    self.removed = removed
  }
}
