import Foundation

/// Encodes a value to exactly the JSON that `JSONEncoder` writes with sorted keys and unescaped
/// slashes, writing bytes as the value's `encode(to:)` goes instead of building a tree of boxed
/// values first: the journal encodes an action and the changed elements on every append, and
/// `JSONEncoder` was a fifth of an append's instructions.
///
/// It writes what most states and actions hold: objects with ASCII keys, arrays, strings,
/// integers, finite floating-point numbers, booleans and null. Whatever it would not write as
/// `JSONEncoder` does — a `Data`, `URL` or `Decimal` (which `JSONEncoder` treats
/// apart), a key outside ASCII or written twice, a container asked for twice or written after a
/// later one, a super-encoder, a value that writes nothing, a number that is not finite, or any
/// error — makes it start again with `JSONEncoder`, whose output or error is then the result.
/// A test compares the two on random values.
package struct SortedJSONEncoder {
  private let fallback: JSONEncoder

  package init() {
    fallback = Self.jsonEncoder()
  }

  /// `JSONEncoder` as this encoder writes: sorted keys, unescaped slashes.
  private static func jsonEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  package func encode<T: Encodable>(_ value: T) throws -> Data {
    // The sink's bytes copied once, into the data.
    if let sink = Self.fastSink(value) {
      return sink.writer.bytes.withUnsafeBufferPointer { Data(buffer: $0) }
    }
    return try fallback.encode(value)
  }

  /// The JSON of a stack element, as text; its case name: the key of its only member when it is
  /// an object of one member (see ``JSONText/caseName(of:)``); and whether stacks may be nested
  /// in it: false only when this encoder wrote it and met no stack nor route of an array.
  package func encodeElement<T: Encodable>(_ value: T) throws
    -> (json: String, caseName: String?, mayHoldStacks: Bool)
  {
    if let sink = Self.fastSink(value) {
      return (sink.writer.text, sink.onlyKey, sink.encounter.met)
    }
    let json = try fallback.encode(value)
    return (String(decoding: json, as: UTF8.self), JSONText.caseName(of: json), true)
  }

  /// The JSON of `value`, or nil when `JSONEncoder` must write it.
  package static func fastEncode<T: Encodable>(_ value: T) -> [UInt8]? {
    fastSink(value)?.writer.bytes.array
  }

  /// The sink `value` was written to, or nil when `JSONEncoder` must write it.
  ///
  /// A ``_JournalJSONWritable`` value writes itself, each of its cases once checked against
  /// its `Encodable` (see ``WritableChecks``). When a case was found to differ, or anything the
  /// writers met cannot be written here, the value is written through `Encodable` alone.
  private static func fastSink<T: Encodable>(_ value: T) -> JSONSink? {
    let sink = JSONSink()
    guard (try? sink.writeValue(value, pathCount: 0, key: nil)) != nil, !sink.refused else {
      return sink.metWritable ? encodableSink(value) : nil
    }
    return sink
  }

  /// What `value`'s `Encodable` alone writes, without any writer: here or by `JSONEncoder`; nil
  /// when it throws.
  static func encodableBytes<T: Encodable>(_ value: T) -> [UInt8]? {
    if let sink = encodableSink(value) { return sink.writer.bytes.array }
    return (try? jsonEncoder().encode(value)).map { Array($0) }
  }

  /// The sink `value` was written to through `Encodable` alone, or nil.
  static func encodableSink<T: Encodable>(_ value: T) -> JSONSink? {
    let sink = JSONSink(allowsWritable: false)
    do {
      try sink.write(value, pathCount: 0, key: nil)
    } catch {
      return nil
    }
    return sink.refused ? nil : sink
  }
}

/// Thrown where the output would differ from `JSONEncoder`'s.
struct NotLikeJSONEncoder: Error {}
