import StackNavigation

/// What one action did to one stack.
///
/// A stack that appears lists every element as pushed; a stack that disappears (its parent
/// element was popped, say) has ``removed`` set and lists its IDs as popped.
///
/// A change to a presented destination (see ``StackRecord/isPresentation``) has
/// ``isPresentation`` set: presenting something creates its record, pushing `#0`; a change to
/// what is presented changes `#0`; a dismissal removes the record.
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
  /// Whether the change is to a presented destination rather than a stack.
  public var isPresentation: Bool

  /// Creates a change.
  public init(
    path: String,
    nextID: StackElementID,
    ids: [StackElementID],
    pushed: [StoredElement] = [],
    popped: [StackElementID] = [],
    changed: [StoredElement] = [],
    removed: Bool = false,
    isPresentation: Bool = false
  ) {
    self.path = path
    self.nextID = nextID
    self.ids = ids
    self.pushed = pushed
    self.popped = popped
    self.changed = changed
    self.removed = removed
    self.isPresentation = isPresentation
  }

  // `"presentation": true` is written for a presentation's change only, so a stack's change
  // reads as it did before presentations were journaled.
  private enum CodingKeys: String, CodingKey {
    case path, nextID, ids, pushed, popped, changed, removed
    case isPresentation = "presentation"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    path = try container.decode(String.self, forKey: .path)
    nextID = try container.decode(StackElementID.self, forKey: .nextID)
    ids = try container.decode([StackElementID].self, forKey: .ids)
    pushed = try container.decode([StoredElement].self, forKey: .pushed)
    popped = try container.decode([StackElementID].self, forKey: .popped)
    changed = try container.decode([StoredElement].self, forKey: .changed)
    removed = try container.decode(Bool.self, forKey: .removed)
    isPresentation = try container.decodeIfPresent(Bool.self, forKey: .isPresentation) ?? false
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(changed, forKey: .changed)
    try container.encode(ids, forKey: .ids)
    try container.encode(nextID, forKey: .nextID)
    try container.encode(path, forKey: .path)
    try container.encode(popped, forKey: .popped)
    if isPresentation { try container.encode(true, forKey: .isPresentation) }
    try container.encode(pushed, forKey: .pushed)
    try container.encode(removed, forKey: .removed)
  }
}
