import StackNavigation

/// One stack of a state, as stored: its path in the state, the ID it hands out next and its
/// elements, bottom first.
///
/// A path joins the coding path of the stack with dots: `path`, `tabs[1].path` (an array's
/// position), `sheets["42"].path` (a dictionary key made of digits), and
/// `path[#3].counter.path` for a stack inside the element `#3` of the stack `path`. A state
/// that is itself a stack has the path `""`. Lists of records are sorted by path, so a parent
/// stack comes before the stacks nested in its elements.
public struct StackRecord: Equatable, Sendable, Codable {
  /// Where the stack sits in the state.
  public var path: String
  /// The generation the stack hands out next; above every ID it ever handed out.
  public var nextID: StackElementID
  /// The elements, bottom of the stack first.
  public var elements: [StoredElement]

  /// Creates a stack record.
  public init(path: String, nextID: StackElementID, elements: [StoredElement]) {
    self.path = path
    self.nextID = nextID
    self.elements = elements
  }

  /// The IDs of the elements, bottom first.
  public var ids: [StackElementID] { elements.map(\.id) }
}
