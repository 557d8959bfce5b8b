/// The keys of a ``Route``'s encoding: the presentation style on top, then its fields.
enum RouteCodingKeys: String, CodingKey {
  case push
  case sheet
  case cover
  case embedInNavigationView
  case screen
}

extension Route: Encodable where Screen: Encodable {
  /// Encodes the route under one key naming how it is shown:
  /// `{"push":{"screen":…}}`, `{"sheet":{"embedInNavigationView":true,"screen":…}}` or
  /// `{"cover":{"embedInNavigationView":false,"screen":…}}`.
  ///
  /// A route that is an element of an array (a coordinator's `routes`) also reports itself to
  /// a ``StackVisitor`` in the encoder's `userInfo`, with its coding path, and encodes nothing
  /// more: the routes of one array are stored as one stack whose IDs are their positions, and
  /// the visitor decides what to encode.
  public func encode(to encoder: any Encoder) throws {
    let inArray = encoder.codingPath.last?.intValue != nil
    if inArray, let visitor = stackVisitor(in: encoder.userInfo) {
      try visitor.visit(self, codingPath: encoder.codingPath, userInfo: encoder.userInfo)
      return
    }
    if inArray { (encoder.userInfo[stackEncounterUserInfoKey] as? StackEncounter)?.met = true }
    var container = encoder.container(keyedBy: RouteCodingKeys.self)
    var fields = container.nestedContainer(keyedBy: RouteCodingKeys.self, forKey: styleKey)
    if isPresented {
      try fields.encode(embedInNavigationView, forKey: .embedInNavigationView)
    }
    try fields.encode(screen, forKey: .screen)
  }

  /// Where the screen sits in the route's encoding, from the route: `[sheet, screen]`.
  ///
  /// A ``StackVisitor`` walks the screen at the route's coding path followed by these keys, so
  /// the stacks nested in a screen have the same coding paths whether or not a visitor drives
  /// the encoding.
  public var screenCodingPath: [any CodingKey] {
    [styleKey, RouteCodingKeys.screen]
  }

  var styleKey: RouteCodingKeys {
    switch self {
    case .push: return .push
    case .sheet: return .sheet
    case .cover: return .cover
    }
  }
}

extension Route: Decodable where Screen: Decodable {
  /// Decodes a route written by ``encode(to:)``.
  ///
  /// Throws `DecodingError.dataCorrupted` unless the value has exactly one of the keys `push`,
  /// `sheet` and `cover`. `embedInNavigationView` may be left out (it is then `false`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: RouteCodingKeys.self)
    let styles = container.allKeys.filter { [.push, .sheet, .cover].contains($0) }
    guard styles.count == 1, let style = styles.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription:
            "A route has exactly one of the keys \"push\", \"sheet\" and \"cover\"; found "
            + (styles.isEmpty
              ? "none" : styles.map { "\"\($0.stringValue)\"" }.joined(separator: ", "))
            + "."
        ))
    }
    let fields = try container.nestedContainer(keyedBy: RouteCodingKeys.self, forKey: style)
    let screen = try fields.decode(Screen.self, forKey: .screen)
    let embed = try fields.decodeIfPresent(Bool.self, forKey: .embedInNavigationView) ?? false
    switch style {
    case .sheet: self = .sheet(screen, embedInNavigationView: embed)
    case .cover: self = .cover(screen, embedInNavigationView: embed)
    default: self = .push(screen)
    }
  }
}
