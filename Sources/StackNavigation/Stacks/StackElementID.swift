/// The identity of one element of a ``StackState``.
///
/// IDs are generational: the N-th element a stack hands an ID to gets generation N (0, 1, 2, …),
/// and a stack never hands out the same generation twice, even after the element is popped.
/// The generator lives inside the ``StackState`` value, so a copy, a decoded value and a replayed
/// value all hand out the same next IDs.
public struct StackElementID: Hashable, Comparable, Sendable {
  /// The position of this ID in the sequence of IDs its stack handed out.
  public let generation: Int

  /// Creates an ID of the given generation.
  public init(generation: Int) {
    self.generation = generation
  }

  /// The largest ID a stack hands out: 2⁵³ − 1, the largest integer every JSON reader keeps
  /// exact. Larger IDs are refused when decoding and when pushed.
  public static let largest = StackElementID(generation: (1 << 53) - 1)

  /// The next ID of a coordinator's routes stored as a stack: one above ``largest``.
  ///
  /// Routes hand out no IDs: the ID of a route is its position, and a position left by a route
  /// that went back is taken again by the next route, as an explicit push of an ID popped
  /// earlier is. A next ID above every ID any stack holds says so, never moves, and lets the
  /// storage record a route going back as a pop and a new route as a push, at the cost of what
  /// changed. No stack of elements can have it: its largest element would have to be `largest`.
  public static let routesNextID = StackElementID(generation: largest.generation + 1)

  /// The ID a stack hands out after this one.
  var next: StackElementID { StackElementID(generation: generation + 1) }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.generation < rhs.generation
  }
}

extension StackElementID: ExpressibleByIntegerLiteral {
  /// Creates an ID from an integer literal, so tests can write `id: 0`.
  public init(integerLiteral value: Int) {
    self.init(generation: value)
  }
}

extension StackElementID: CustomStringConvertible, CustomDumpStringConvertible {
  /// The ID as `#3`.
  public var description: String { "#\(generation)" }
  public var customDumpDescription: String { description }
}

extension StackElementID: Codable {
  /// Decodes an ID from a plain, non-negative integer.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let generation = try container.decode(Int.self)
    guard generation >= 0 else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "A stack element ID is a non-negative integer; found \(generation)."
      )
    }
    // One above the largest ID is still a valid next ID.
    guard generation <= Self.largest.generation + 1 else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription:
          "A stack element ID is at most \(Self.largest.generation + 1); found \(generation)."
      )
    }
    self.init(generation: generation)
  }

  /// Encodes the ID as a plain integer.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(generation)
  }
}
