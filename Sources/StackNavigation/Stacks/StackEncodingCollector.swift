import Foundation

/// Collects every ``StackState`` encoded while it sits in an encoder's `userInfo`.
///
/// An encoding pass of a root state then yields, for each stack inside it (nested ones
/// included), its coding path, IDs, next ID and each element encoded on its own. The storage
/// layer uses this to store stacks as rows without knowing the app's types.
///
/// The routes that are elements of an array (a coordinator's `routes`) are collected as one
/// stack per array, whose IDs are the routes' positions and whose next ID is
/// ``StackElementID/routesNextID``.
///
/// The coding paths are those the encoder reports. Foundation's `JSONEncoder` reports
/// incomplete paths inside nested containers, so an encoder that keeps exact coding paths
/// should drive the pass (`StackStorage`'s `StateEncoding` does).
///
/// ```swift
/// let collector = StackEncodingCollector()
/// encoder.userInfo[StackEncodingCollector.userInfoKey] = collector  // any Encoder's userInfo
/// try rootState.encode(to: encoder)
/// collector.stacks  // every stack in `rootState`
/// ```
public final class StackEncodingCollector: @unchecked Sendable {
  /// One stack met during encoding.
  public struct Stack: Sendable {
    /// The coding path of the stack in the encoded document, e.g. `["path"]`, or
    /// `["path", "elements", "1", "state", "counter", "_0", "path"]` for a nested stack.
    public var codingPath: [String]
    /// The IDs of the elements, bottom first.
    public var ids: [StackElementID]
    /// The ID the stack hands out next.
    public var nextID: StackElementID
    /// Each element encoded on its own, as JSON with sorted keys.
    public var elements: [Data]
  }

  /// The key under which an encoder's `userInfo` carries the collector.
  public static let userInfoKey = CodingUserInfoKey(rawValue: "StackJournal.StackEncodingCollector")!

  /// The stacks met so far, in the order their encoding began (a parent before its children).
  public private(set) var stacks: [Stack] = []

  private let encodeElement: (any Encodable) throws -> Data
  /// The position in ``stacks`` of the routes array being collected at a coding path.
  private var routeStacks: [[String]: Int] = [:]

  /// Creates an empty collector that encodes elements with `JSONEncoder`, keys sorted and
  /// slashes not escaped.
  public init() {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encodeElement = { try encoder.encode($0) }
  }

  /// Creates an empty collector that encodes each element with `encodeElement`: the storage's
  /// own encoder, so that the elements it compares were all written alike.
  package init(encodeElement: @escaping (any Encodable) throws -> Data) {
    self.encodeElement = encodeElement
  }

  func record<Element: Encodable>(_ stack: StackState<Element>, codingPath: [any CodingKey]) throws {
    stacks.append(
      Stack(
        codingPath: codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue },
        ids: stack.ids,
        nextID: stack.nextID,
        elements: try stack.map { try encodeElement($0) }
      )
    )
  }

  /// Adds a route to the stack of its array: the route at position 0 starts the stack (before
  /// the stacks nested in its screen), each next one is appended with its position as its ID.
  func record<Screen: Encodable>(_ route: Route<Screen>, codingPath: [any CodingKey]) throws {
    guard let position = codingPath.last?.intValue else { return }
    let arrayPath = codingPath.dropLast().map { $0.intValue.map(String.init) ?? $0.stringValue }
    let element = try encodeElement(route)
    let id = StackElementID(generation: position)
    if position == 0 {
      routeStacks[arrayPath] = stacks.count
      stacks.append(
        Stack(
          codingPath: arrayPath, ids: [id], nextID: .routesNextID, elements: [element]))
    } else if let index = routeStacks[arrayPath] {
      stacks[index].ids.append(id)
      stacks[index].elements.append(element)
    }
  }
}
