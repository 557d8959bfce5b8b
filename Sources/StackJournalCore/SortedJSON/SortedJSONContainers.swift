import Foundation

// The encoder and containers of ``SortedJSONEncoder``: each writes into the ``JSONSink`` where it
// stands, and throws ``NotLikeJSONEncoder`` where `JSONEncoder` would write otherwise.

/// The encoder a value writes itself to, at `start` in the bytes: the first container it asks for
/// decides what the value is; asking again once something was written is refused, as
/// `JSONEncoder` would merge the second container into the first.
struct ValueEncoder: Encoder {
  let sink: JSONSink
  let start: Int
  let pathCount: Int

  var codingPath: [any CodingKey] { sink.codingPath(pathCount) }
  var userInfo: [CodingUserInfoKey: Any] { sink.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let id = sink.claim(start) ? sink.open(object: true) : 0
    return KeyedEncodingContainer(
      ObjectContainer<Key>(sink: sink, depth: sink.frames.count - 1, id: id, pathCount: pathCount))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let id = sink.claim(start) ? sink.open(object: false) : 0
    return ArrayContainer(sink: sink, depth: sink.frames.count - 1, id: id, pathCount: pathCount)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    _ = sink.claim(start)
    return ValueContainer(sink: sink, start: start, pathCount: pathCount)
  }
}

/// A keyed container: the object of frame `id` at `depth` (`id` 0: refused, its writes throw),
/// made by the encoder whose path is `pathCount` long, under the keys `nestedKeys` in it.
struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let sink: JSONSink
  let depth: Int
  let id: Int
  let pathCount: Int
  var nestedKeys = NestedKeys()

  var codingPath: [any CodingKey] { sink.codingPath(pathCount) + nestedKeys.all }

  private func member(_ key: Key) throws {
    try sink.enter(id, depth: depth)
    try sink.member(key.stringValue, depth: depth)
  }

  mutating func encodeNil(forKey key: Key) throws {
    try member(key)
    sink.writeNull()
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try member(key)
    sink.writeBool(value)
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    try member(key)
    sink.writer.string(value)
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    try member(key)
    try sink.writeNumber(value)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    try member(key)
    try sink.writeNumber(value)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try member(key)
    sink.writer.integer(value)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try member(key)
    try sink.writeValue(value, pathCount: pathCount, key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let id = (try? member(key)) != nil ? sink.open(object: true) : sink.refuse()
    return KeyedEncodingContainer(
      ObjectContainer<NestedKey>(
        sink: sink, depth: depth + 1, id: id, pathCount: pathCount,
        nestedKeys: nestedKeys.appending(key)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let id = (try? member(key)) != nil ? sink.open(object: false) : sink.refuse()
    return ArrayContainer(
      sink: sink, depth: depth + 1, id: id, pathCount: pathCount,
      nestedKeys: nestedKeys.appending(key))
  }

  mutating func superEncoder() -> any Encoder {
    sink.refuse()
    return RefusingEncoder(codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    sink.refuse()
    return RefusingEncoder(codingPath: codingPath + [key])
  }
}

/// An unkeyed container: the array of frame `id` at `depth` (`id` 0: refused, its writes throw),
/// made by the encoder whose path is `pathCount` long, under the keys `nestedKeys` in it.
struct ArrayContainer: UnkeyedEncodingContainer, PositionalJSONContainer {
  let sink: JSONSink
  let depth: Int
  let id: Int
  let pathCount: Int
  let nestedKeys: NestedKeys
  private(set) var count = 0

  init(sink: JSONSink, depth: Int, id: Int, pathCount: Int, nestedKeys: NestedKeys = NestedKeys()) {
    self.sink = sink
    self.depth = depth
    self.id = id
    self.pathCount = pathCount
    self.nestedKeys = nestedKeys
  }

  var codingPath: [any CodingKey] { sink.codingPath(pathCount) + nestedKeys.all }

  mutating func next() throws {
    try sink.enter(id, depth: depth)
    count = sink.element(depth: depth) + 1
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try next()
    try sink.writeValue(value, pathCount: pathCount, key: IndexKey(count - 1))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let id = (try? next()) != nil ? sink.open(object: true) : sink.refuse()
    return KeyedEncodingContainer(
      ObjectContainer<NestedKey>(
        sink: sink, depth: depth + 1, id: id, pathCount: pathCount,
        nestedKeys: nestedKeys.appending(IndexKey(count - 1))))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let id = (try? next()) != nil ? sink.open(object: false) : sink.refuse()
    return ArrayContainer(
      sink: sink, depth: depth + 1, id: id, pathCount: pathCount,
      nestedKeys: nestedKeys.appending(IndexKey(count - 1)))
  }

  mutating func superEncoder() -> any Encoder {
    sink.refuse()
    return RefusingEncoder(codingPath: codingPath)
  }
}

/// A single value container: writes one value at `start`, before anything else is written.
struct ValueContainer: SingleValueEncodingContainer, PositionalJSONContainer {
  let sink: JSONSink
  let start: Int
  let pathCount: Int

  var codingPath: [any CodingKey] { sink.codingPath(pathCount) }

  mutating func next() throws {
    guard sink.claim(start) else { throw NotLikeJSONEncoder() }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try next()
    try sink.writeValue(value, pathCount: pathCount, key: nil)
  }
}

/// The super-encoder ``SortedJSONEncoder`` does not offer (asking for it already hands the
/// value to `JSONEncoder`): its containers' writes throw.
struct RefusingEncoder: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(ObjectContainer<Key>(sink: JSONSink(), depth: 0, id: 0, pathCount: 0))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ArrayContainer(sink: JSONSink(), depth: 0, id: 0, pathCount: 0)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    ValueContainer(sink: JSONSink(), start: -1, pathCount: 0)
  }
}

/// An array element's key in a coding path, named as `JSONEncoder` names it.
struct IndexKey: CodingKey {
  let intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }

  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

/// The keys of the nested containers between an encoder and a container, kept as the keys
/// before the last one and the last one, so that a container nested once — each case of an
/// enum's synthesized encoding asks for one — allocates no array; the whole list is built only
/// when a coding path is asked for.
struct NestedKeys {
  private var before: [any CodingKey] = []
  private var last: (any CodingKey)?

  var all: [any CodingKey] {
    guard let last else { return before }
    return before + [last]
  }

  func appending(_ key: any CodingKey) -> NestedKeys {
    var keys = NestedKeys()
    keys.before = all
    keys.last = key
    return keys
  }
}
