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
  /// Whether the record is a presented destination rather than a stack.
  public var isPresentation: Bool

  /// Creates a stack record.
  public init(
    path: String, nextID: StackElementID, elements: [StoredElement], isPresentation: Bool = false
  ) {
    self.path = path
    self.nextID = nextID
    self.elements = elements
    self.isPresentation = isPresentation
  }

  /// The record of a destination presented at `path`: what is presented, as the element `#0`.
  public static func presented(at path: String, _ presented: StoredElement) -> StackRecord {
    StackRecord(path: path, nextID: 1, elements: [presented], isPresentation: true)
  }

  // `"presentation": true` is written for a presentation only, so a stack's JSON is what it was
  // before presentations were journaled.
  private enum CodingKeys: String, CodingKey {
    case path, nextID, elements
    case isPresentation = "presentation"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    path = try container.decode(String.self, forKey: .path)
    nextID = try container.decode(StackElementID.self, forKey: .nextID)
    elements = try container.decode([StoredElement].self, forKey: .elements)
    isPresentation = try container.decodeIfPresent(Bool.self, forKey: .isPresentation) ?? false
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(elements, forKey: .elements)
    try container.encode(nextID, forKey: .nextID)
    try container.encode(path, forKey: .path)
    if isPresentation { try container.encode(true, forKey: .isPresentation) }
  }

  /// The IDs of the elements, bottom first.
  public var ids: [StackElementID] { elements.map(\.id) }
}
