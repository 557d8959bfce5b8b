import StackNavigation

/// One element of a stored stack: its ID, the case it is in and its state as JSON.
///
/// Stored as a row of `stack_elements`, and inside journal deltas and snapshots, without the
/// application's types.
public struct StoredElement: Equatable, Sendable, Codable {
  /// The element's generational ID within its stack.
  public var id: StackElementID
  /// The case of an enum element, e.g. `counter`: the single key of the element's JSON object,
  /// or `nil` when the JSON is not an object with exactly one key.
  public var caseName: String?
  /// The element's state as JSON text with sorted keys.
  public var state: String

  /// Creates a stored element.
  public init(id: StackElementID, caseName: String?, state: String) {
    self.id = id
    self.caseName = caseName
    self.state = state
  }
}
