import Foundation

/// Encodes a value to exactly the JSON that `JSONEncoder` writes with sorted keys and unescaped
/// slashes, writing bytes as the value's `encode(to:)` goes instead of building a tree of boxed
/// values first: the journal encodes an action and the changed elements on every append, and
/// `JSONEncoder` was a fifth of an append's instructions.
///
/// It writes what most states and actions hold: objects with ASCII keys, arrays, strings,
/// integers, finite floating-point numbers, booleans and null. Whatever it would not write as
/// `JSONEncoder` does — a `Date`, `Data`, `URL` or `Decimal` (which `JSONEncoder` treats
/// apart), a key outside ASCII or written twice, a container asked for twice or written after a
/// later one, a super-encoder, a value that writes nothing, a number that is not finite, or any
/// error — makes it start again with `JSONEncoder`, whose output or error is then the result.
/// A test compares the two on random values.
package struct SortedJSONEncoder {
  private let fallback: JSONEncoder

  package init() {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    fallback = encoder
  }

  package func encode<T: Encodable>(_ value: T) throws -> Data {
    if let bytes = Self.fastEncode(value) { return Data(bytes) }
    return try fallback.encode(value)
  }

  /// The JSON of `value`, or nil when `JSONEncoder` must write it.
  package static func fastEncode<T: Encodable>(_ value: T) -> [UInt8]? {
    let sink = JSONSink()
    do {
      try sink.write(value, codingPath: [])
      try sink.close(above: 0)
    } catch {
      return nil
    }
    return sink.refused ? nil : sink.writer.bytes
  }
}

/// Thrown where the output would differ from `JSONEncoder`'s.
private struct NotLikeJSONEncoder: Error {}

/// The bytes written so far and the containers still open, innermost last.
private final class JSONSink {
  struct Frame {
    let id: Int
    let isObject: Bool
    var count = 0
    /// An object's keys and where each member starts, in the order written.
    var members: [(key: String, start: Int)] = []
  }

  // Unchecked: a value's encoding runs on one thread, and the dynamic exclusivity check of each
  // write was a tenth of the encoder's cost.
  @exclusivity(unchecked) var writer = StorageJSON.Writer()
  @exclusivity(unchecked) var frames: [Frame] = []
  /// Whether a container was asked for that cannot be written as `JSONEncoder` would (the
  /// request itself cannot throw).
  var refused = false
  private var nextID = 0

  /// Writes a value at the current position.
  func write<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
    guard !Self.isTreatedApart(T.self) else { throw NotLikeJSONEncoder() }
    let depth = frames.count
    let start = writer.bytes.count
    try value.encode(to: ValueEncoder(sink: self, codingPath: codingPath))
    try close(above: depth)
    // `JSONEncoder` writes `{}` for a nested value that wrote nothing and refuses one at the top.
    guard writer.bytes.count > start else { throw NotLikeJSONEncoder() }
  }

  /// Types `JSONEncoder` writes otherwise than their own `encode(to:)` does.
  static func isTreatedApart(_ type: Any.Type) -> Bool {
    type == Date.self || type == Data.self || type == URL.self || type == Decimal.self
  }

  /// The ID of a container opened after `step`, or nil, marking the encoding refused, when
  /// `step` throws.
  func open(object: Bool, after step: () throws -> Void) -> Int? {
    do {
      try step()
      return open(object: object)
    } catch {
      refused = true
      return nil
    }
  }

  /// Opens an object or an array at the current position and returns its frame's ID.
  func open(object: Bool) -> Int {
    nextID += 1
    writer.bytes.append(UInt8(ascii: object ? "{" : "["))
    frames.append(Frame(id: nextID, isObject: object))
    return nextID
  }

  /// Makes the frame `id` at `depth` the innermost, closing those opened after it; throws when it
  /// was closed already.
  func enter(_ id: Int, depth: Int) throws {
    guard depth < frames.count, frames[depth].id == id else { throw NotLikeJSONEncoder() }
    try close(above: depth + 1)
  }

  /// Starts the next member of the object at `depth`.
  func member(_ key: String, depth: Int) throws {
    guard key.utf8.allSatisfy({ $0 < 0x80 }) else { throw NotLikeJSONEncoder() }
    if frames[depth].count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
    frames[depth].count += 1
    frames[depth].members.append((key, writer.bytes.count))
    writer.string(key)
    writer.bytes.append(UInt8(ascii: ":"))
  }

  /// Starts the next element of the array at `depth`.
  func element(depth: Int) {
    if frames[depth].count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
    frames[depth].count += 1
  }

  /// Closes the frames from `depth` on, sorting each object's members by key.
  func close(above depth: Int) throws {
    while frames.count > depth {
      let frame = frames.removeLast()
      if frame.isObject {
        try sortMembers(frame.members)
        writer.bytes.append(UInt8(ascii: "}"))
      } else {
        writer.bytes.append(UInt8(ascii: "]"))
      }
    }
  }

  /// Rewrites an object's members, which run to the end of the bytes, in the order of their keys
  /// (byte order, as `JSONEncoder` sorts).
  private func sortMembers(_ members: [(key: String, start: Int)]) throws {
    let ascending = members.indices.dropFirst().allSatisfy {
      members[$0 - 1].key.utf8.lexicographicallyPrecedes(members[$0].key.utf8)
    }
    guard !ascending, let first = members.first else { return }
    let end = writer.bytes.count
    // Each member's bytes without the comma before it.
    let spans = members.indices.map { index -> (key: String, bytes: ArraySlice<UInt8>) in
      let stop = index + 1 < members.count ? members[index + 1].start - 1 : end
      return (members[index].key, writer.bytes[members[index].start..<stop])
    }
    let ordered = spans.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    // A key written twice: `JSONEncoder` keeps the last value.
    for index in ordered.indices.dropFirst()
    where ordered[index - 1].key.utf8.elementsEqual(ordered[index].key.utf8) {
      throw NotLikeJSONEncoder()
    }
    var rewritten: [UInt8] = []
    rewritten.reserveCapacity(end - first.start)
    for (index, span) in ordered.enumerated() {
      if index > 0 { rewritten.append(UInt8(ascii: ",")) }
      rewritten.append(contentsOf: span.bytes)
    }
    writer.bytes.replaceSubrange(first.start..<end, with: rewritten)
  }

  func writeNumber(_ double: Double) throws {
    guard double.isFinite else { throw NotLikeJSONEncoder() }
    writeTrimmed(double.description)
  }

  func writeNumber(_ float: Float) throws {
    guard float.isFinite else { throw NotLikeJSONEncoder() }
    writeTrimmed(float.description)
  }

  /// A number's description without a trailing `.0`, as `JSONEncoder` writes it.
  private func writeTrimmed(_ description: String) {
    let utf8 = description.utf8
    if utf8.count > 2, utf8.last == UInt8(ascii: "0"),
      utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".")
    {
      writer.bytes.append(contentsOf: utf8.dropLast(2))
    } else {
      writer.bytes.append(contentsOf: utf8)
    }
  }

  func writeInteger(_ value: some BinaryInteger) {
    writer.bytes.append(contentsOf: value.description.utf8)
  }

  func writeBool(_ value: Bool) {
    writer.bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  func writeNull() {
    writer.bytes.append(contentsOf: "null".utf8)
  }
}

/// The encoder a value writes itself to: the first container it asks for decides what it is.
private final class ValueEncoder: Encoder {
  let sink: JSONSink
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  private var asked = false

  init(sink: JSONSink, codingPath: [any CodingKey]) {
    self.sink = sink
    self.codingPath = codingPath
  }

  /// Allows one container: `JSONEncoder` merges a second one into the first, which a writer
  /// that has moved on cannot.
  private func ask() throws {
    if asked { throw NotLikeJSONEncoder() }
    asked = true
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let container = ObjectContainer<Key>(
      sink: sink, depth: sink.frames.count, id: sink.open(object: true, after: ask),
      codingPath: codingPath)
    return KeyedEncodingContainer(container)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ArrayContainer(
      sink: sink, depth: sink.frames.count, id: sink.open(object: false, after: ask),
      codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    let usable = (try? ask()) != nil
    if !usable { sink.refused = true }
    return ValueContainer(sink: sink, usable: usable, codingPath: codingPath)
  }
}

/// A keyed container; `id` is nil when it may not be written (its writes throw).
private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let sink: JSONSink
  let depth: Int
  let id: Int?
  let codingPath: [any CodingKey]

  private func member(_ key: Key) throws {
    guard let id else { throw NotLikeJSONEncoder() }
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
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try member(key)
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try member(key)
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try member(key)
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try member(key)
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try member(key)
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try member(key)
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try member(key)
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try member(key)
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try member(key)
    sink.writeInteger(value)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try member(key)
    try sink.write(value, codingPath: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let opened = sink.open(object: true) { try member(key) }
    return KeyedEncodingContainer(
      ObjectContainer<NestedKey>(
        sink: sink, depth: depth + 1, id: opened, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let opened = sink.open(object: false) { try member(key) }
    return ArrayContainer(
      sink: sink, depth: depth + 1, id: opened, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    sink.refused = true
    return RefusingEncoder(codingPath: codingPath)
  }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    sink.refused = true
    return RefusingEncoder(codingPath: codingPath + [key])
  }
}

/// An unkeyed container; `id` is nil when it may not be written (its writes throw).
private struct ArrayContainer: UnkeyedEncodingContainer {
  let sink: JSONSink
  let depth: Int
  let id: Int?
  let codingPath: [any CodingKey]
  private(set) var count = 0

  init(sink: JSONSink, depth: Int, id: Int?, codingPath: [any CodingKey]) {
    self.sink = sink
    self.depth = depth
    self.id = id
    self.codingPath = codingPath
  }

  private mutating func element() throws {
    guard let id else { throw NotLikeJSONEncoder() }
    try sink.enter(id, depth: depth)
    sink.element(depth: depth)
    count += 1
  }

  mutating func encodeNil() throws {
    try element()
    sink.writeNull()
  }
  mutating func encode(_ value: Bool) throws {
    try element()
    sink.writeBool(value)
  }
  mutating func encode(_ value: String) throws {
    try element()
    sink.writer.string(value)
  }
  mutating func encode(_ value: Double) throws {
    try element()
    try sink.writeNumber(value)
  }
  mutating func encode(_ value: Float) throws {
    try element()
    try sink.writeNumber(value)
  }
  mutating func encode(_ value: Int) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int8) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int16) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int32) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int64) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt8) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt16) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt32) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt64) throws {
    try element()
    sink.writeInteger(value)
  }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = count
    try element()
    try sink.write(value, codingPath: codingPath + [IndexKey(index)])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let index = count
    let opened = sink.open(object: true) { try element() }
    return KeyedEncodingContainer(
      ObjectContainer<NestedKey>(
        sink: sink, depth: depth + 1, id: opened, codingPath: codingPath + [IndexKey(index)]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let index = count
    let opened = sink.open(object: false) { try element() }
    return ArrayContainer(
      sink: sink, depth: depth + 1, id: opened, codingPath: codingPath + [IndexKey(index)])
  }

  mutating func superEncoder() -> any Encoder {
    sink.refused = true
    return RefusingEncoder(codingPath: codingPath)
  }
}

/// A single value container: writes one value where it stands.
private struct ValueContainer: SingleValueEncodingContainer {
  let sink: JSONSink
  let depth: Int
  let codingPath: [any CodingKey]
  private var usable: Bool

  init(sink: JSONSink, usable: Bool, codingPath: [any CodingKey]) {
    self.sink = sink
    self.depth = sink.frames.count
    self.usable = usable
    self.codingPath = codingPath
  }

  /// Allows one value, written before anything after it.
  private mutating func value() throws {
    guard usable, sink.frames.count == depth else { throw NotLikeJSONEncoder() }
    usable = false
  }

  mutating func encodeNil() throws {
    try value()
    sink.writeNull()
  }
  mutating func encode(_ value: Bool) throws {
    try self.value()
    sink.writeBool(value)
  }
  mutating func encode(_ value: String) throws {
    try self.value()
    sink.writer.string(value)
  }
  mutating func encode(_ value: Double) throws {
    try self.value()
    try sink.writeNumber(value)
  }
  mutating func encode(_ value: Float) throws {
    try self.value()
    try sink.writeNumber(value)
  }
  mutating func encode(_ value: Int) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int8) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int16) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int32) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: Int64) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt8) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt16) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt32) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode(_ value: UInt64) throws {
    try self.value()
    sink.writeInteger(value)
  }
  mutating func encode<T: Encodable>(_ value: T) throws {
    try self.value()
    try sink.write(value, codingPath: codingPath)
  }
}

/// The super-encoder this writer does not offer (asking for it already hands the value to
/// `JSONEncoder`): its containers' writes throw.
private struct RefusingEncoder: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      ObjectContainer<Key>(sink: JSONSink(), depth: 0, id: nil, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ArrayContainer(sink: JSONSink(), depth: 0, id: nil, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    ValueContainer(sink: JSONSink(), usable: false, codingPath: codingPath)
  }
}

/// An array element's key in a coding path.
private struct IndexKey: CodingKey {
  let intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }

  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}
