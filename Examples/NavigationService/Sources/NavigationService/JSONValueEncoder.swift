import Foundation

extension JSONValue {
  /// The value of an `Encodable`: what `JSONEncoder` (default strategies) writes for it, read
  /// back as a `JSONValue`, built without writing or parsing text.
  ///
  /// A response carries each stack element's state as a `JSONValue`; going through
  /// `JSONEncoder` and then `JSONDecoder` cost about 30 µs an element (the decoder finds a
  /// value's kind by trying each kind in turn and catching the errors), which made a
  /// response's cost grow with the stack. Foundation offers no encoder to a value tree, so this
  /// one is written here. It follows `JSONEncoder`'s defaults where they differ from a type's
  /// own `encode(to:)`: `Data` as Base64 text, `URL` as its absolute string, `Decimal` as a
  /// number, and a non-finite floating-point value refused.
  public init(encoding value: some Encodable) throws {
    let root = TreeNode()
    try TreeEncoder(node: root, codingPath: []).encodeValue(value)
    self = root.value
  }
}

/// A value being built: set once by a single-value container, or filled by a keyed or an
/// unkeyed container (a class, so that nested containers write into their parent's node).
private final class TreeNode {
  enum Content {
    case unset
    case value(JSONValue)
    case object([String: TreeNode])
    case array([TreeNode])
  }
  var content = Content.unset

  init() {}
  init(_ value: JSONValue) { content = .value(value) }

  /// What `JSONEncoder` writes for this node; a value that encoded nothing is `{}`, as there.
  var value: JSONValue {
    switch content {
    case .unset: .object([:])
    case .value(let value): value
    case .object(let fields): .object(fields.mapValues(\.value))
    case .array(let items): .array(items.map(\.value))
    }
  }

  func makeObject() {
    if case .object = content { return }
    content = .object([:])
  }

  func makeArray() {
    if case .array = content { return }
    content = .array([])
  }

  func set(_ child: TreeNode, forKey key: String) {
    guard case .object(var fields) = content else { return }
    content = .unset  // `fields` is then the dictionary's only reference, changed in place
    fields[key] = child
    content = .object(fields)
  }

  func append(_ child: TreeNode) {
    guard case .array(var items) = content else { return }
    content = .unset
    items.append(child)
    content = .array(items)
  }

  var count: Int {
    switch content {
    case .object(let fields): fields.count
    case .array(let items): items.count
    default: 0
    }
  }
}

private struct IndexKey: CodingKey {
  var stringValue: String { "Index \(intValue!)" }
  var intValue: Int?
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

private struct SuperKey: CodingKey {
  var stringValue: String { "super" }
  var intValue: Int? { nil }
  init() {}
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}

private struct TreeEncoder: Encoder {
  let node: TreeNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.makeObject()
    return KeyedEncodingContainer(TreeKeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.makeArray()
    return TreeUnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    TreeSingleValueContainer(encoder: self)
  }

  /// Encodes `value` into `node`, with `JSONEncoder`'s defaults for the types it treats itself.
  func encodeValue(_ value: some Encodable) throws {
    switch value {
    case let data as Data: node.content = .value(.string(data.base64EncodedString()))
    case let url as URL: node.content = .value(.string(url.absoluteString))
    case let decimal as Decimal:
      node.content = .value(.number(NSDecimalNumber(decimal: decimal).doubleValue))
    default: try value.encode(to: self)
    }
  }

  /// The tree of `value` encoded at `key`.
  func child(_ value: some Encodable, at key: any CodingKey) throws -> TreeNode {
    let node = TreeNode()
    try TreeEncoder(node: node, codingPath: codingPath + [key]).encodeValue(value)
    return node
  }
}

/// A scalar's `JSONValue`: integers that fit in `Int64` as integers, other numbers as `Double`.
private enum Scalar {
  static func integer(_ value: some BinaryInteger) -> JSONValue {
    if let exact = Int64(exactly: value) { return .integer(exact) }
    return .number(Double(value))
  }

  static func number(_ value: Double, _ path: [any CodingKey]) throws -> JSONValue {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: path, debugDescription: "\(value) is not a JSON number."))
    }
    // A whole number below 2⁵³ is written as its digits, which read back as an integer;
    // `JSONEncoder` writes a larger one with an exponent, as a `Double` is written here.
    if value.magnitude < 0x20_0000_0000_0000, let exact = Int64(exactly: value) {
      return .integer(exact)
    }
    return .number(value)
  }

  /// A `Float` as the `Double` its shortest text reads as (`0.1`, not `0.10000000149011612`),
  /// which is the number `JSONEncoder` writes for it.
  static func number(_ value: Float, _ path: [any CodingKey]) throws -> JSONValue {
    guard value.isFinite else { return try number(Double(value), path) }
    return try number(Double(String(value)) ?? Double(value), path)
  }
}

private struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: TreeNode
  let codingPath: [any CodingKey]

  private func put(_ value: JSONValue, _ key: Key) {
    node.set(TreeNode(value), forKey: key.stringValue)
  }

  mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    put(try Scalar.number(value, codingPath + [key]), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    put(try Scalar.number(value, codingPath + [key]), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(Scalar.integer(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { put(Scalar.integer(value), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { put(Scalar.integer(value), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { put(Scalar.integer(value), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(Scalar.integer(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { put(Scalar.integer(value), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { put(Scalar.integer(value), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    put(Scalar.integer(value), key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    put(Scalar.integer(value), key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    put(Scalar.integer(value), key)
  }
  mutating func encode(_ value: some Encodable, forKey key: Key) throws {
    node.set(
      try TreeEncoder(node: node, codingPath: codingPath).child(value, at: key),
      forKey: key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = TreeNode()
    node.set(child, forKey: key.stringValue)
    return TreeEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = TreeNode()
    node.set(child, forKey: key.stringValue)
    return TreeEncoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { superEncoder(at: SuperKey()) }
  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(at: key) }

  private func superEncoder(at key: any CodingKey) -> any Encoder {
    let child = TreeNode()
    node.set(child, forKey: key.stringValue)
    return TreeEncoder(node: child, codingPath: codingPath + [key])
  }
}

private struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
  let node: TreeNode
  let codingPath: [any CodingKey]
  var count: Int { node.count }

  private func add(_ value: JSONValue) { node.append(TreeNode(value)) }
  private var nextKey: IndexKey { IndexKey(count) }

  mutating func encodeNil() throws { add(.null) }
  mutating func encode(_ value: Bool) throws { add(.bool(value)) }
  mutating func encode(_ value: String) throws { add(.string(value)) }
  mutating func encode(_ value: Double) throws {
    add(try Scalar.number(value, codingPath + [nextKey]))
  }
  mutating func encode(_ value: Float) throws {
    add(try Scalar.number(value, codingPath + [nextKey]))
  }
  mutating func encode(_ value: Int) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: Int8) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: Int16) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: Int32) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: Int64) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: UInt) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: UInt8) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: UInt16) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: UInt32) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: UInt64) throws { add(Scalar.integer(value)) }
  mutating func encode(_ value: some Encodable) throws {
    node.append(try TreeEncoder(node: node, codingPath: codingPath).child(value, at: nextKey))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let (child, path) = addChild()
    return TreeEncoder(node: child, codingPath: path).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let (child, path) = addChild()
    return TreeEncoder(node: child, codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let (child, path) = addChild()
    return TreeEncoder(node: child, codingPath: path)
  }

  private func addChild() -> (TreeNode, [any CodingKey]) {
    let path = codingPath + [nextKey]
    let child = TreeNode()
    node.append(child)
    return (child, path)
  }
}

private struct TreeSingleValueContainer: SingleValueEncodingContainer {
  let encoder: TreeEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  private func set(_ value: JSONValue) { encoder.node.content = .value(value) }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { set(try Scalar.number(value, codingPath)) }
  mutating func encode(_ value: Float) throws { set(try Scalar.number(value, codingPath)) }
  mutating func encode(_ value: Int) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: Int8) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: Int16) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: Int32) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: Int64) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: UInt) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: UInt8) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: UInt16) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: UInt32) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: UInt64) throws { set(Scalar.integer(value)) }
  mutating func encode(_ value: some Encodable) throws { try encoder.encodeValue(value) }
}
