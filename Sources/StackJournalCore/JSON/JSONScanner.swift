import Foundation

/// The one JSON tokenizer: finds the extent of JSON values in bytes, and reads strings, numbers
/// and literals for those who build values from it (the CLI's `JSONValue`).
///
/// Skipping a value checks only what it needs to find where the value ends (quotes, escapes,
/// nesting), not that the value is valid JSON; ``string()``, ``number()`` and ``literal(_:)``
/// read exactly JSON's grammar. Works on any bytes indexed by `Int`: an `UnsafeBufferPointer` to
/// read `Data` without copying it, or an `ArraySlice` of a file's line.
package struct JSONScanner<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
  /// The bytes scanned.
  package let bytes: Bytes
  /// The index of the next byte to read.
  package var offset: Int

  /// Starts at the first byte.
  package init(bytes: Bytes) {
    self.bytes = bytes
    self.offset = bytes.startIndex
  }

  /// Whether every byte was read.
  package var isAtEnd: Bool { offset >= bytes.endIndex }

  /// The next byte, or `nil` at the end.
  package var current: UInt8? { isAtEnd ? nil : bytes[offset] }

  /// Skips JSON's white space: space, tab, line feed and carriage return.
  package mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      offset += 1
    }
  }

  /// Reads `byte` when it is next.
  package mutating func consume(_ byte: UInt8) -> Bool {
    guard current == byte else { return false }
    offset += 1
    return true
  }

  /// Skips a string starting at the current quote; returns whether it held escapes, or `nil`
  /// when it is not a complete string.
  package mutating func skipString() -> Bool? {
    guard consume(UInt8(ascii: "\"")) else { return nil }
    var hasEscapes = false
    while let byte = current {
      offset += 1
      if byte == UInt8(ascii: "\\") {
        hasEscapes = true
        offset += 1
      } else if byte == UInt8(ascii: "\"") {
        return hasEscapes
      }
    }
    return nil
  }

  /// Skips white space, then one value (object, array, string or scalar); `false` when it is
  /// incomplete.
  package mutating func skipValue() -> Bool {
    skipWhitespace()
    guard let first = current else { return false }
    switch first {
    case UInt8(ascii: "\""):
      return skipString() != nil
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      while let byte = current {
        switch byte {
        case UInt8(ascii: "\""):
          guard skipString() != nil else { return false }
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
        default:
          break
        }
        offset += 1
        if depth == 0 { return true }
      }
      return false
    default:
      let start = offset
      while let byte = current,
        !(byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
          || byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09)
      {
        offset += 1
      }
      return offset > start
    }
  }
}

extension JSONScanner {
  /// Reads a string starting at the current quote, unescaped; `nil` when it is not a complete
  /// JSON string.
  package mutating func string() -> String? {
    let start = offset
    guard let hasEscapes = skipString() else { return nil }
    let quoted = bytes[start..<offset]
    guard hasEscapes else { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
    if let text = Self.unescaped(quoted.dropFirst().dropLast()) { return text }
    return try? JSONDecoder().decode(String.self, from: Data(quoted))
  }

  /// The text of a string's bytes between its quotes when its escapes are all one character
  /// (`\n`, `\"`, …) and it holds no raw control character; `nil` otherwise, for Foundation's
  /// decoder to judge (a `\u` escape, which may be half a surrogate pair).
  private static func unescaped(_ inner: Bytes.SubSequence) -> String? {
    var result: [UInt8] = []
    result.reserveCapacity(inner.count)
    var iterator = inner.makeIterator()
    while let byte = iterator.next() {
      guard byte >= 0x20 else { return nil }
      guard byte == UInt8(ascii: "\\") else {
        result.append(byte)
        continue
      }
      switch iterator.next() {
      case UInt8(ascii: "\""): result.append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): result.append(UInt8(ascii: "\\"))
      case UInt8(ascii: "/"): result.append(UInt8(ascii: "/"))
      case UInt8(ascii: "b"): result.append(0x08)
      case UInt8(ascii: "f"): result.append(0x0C)
      case UInt8(ascii: "n"): result.append(0x0A)
      case UInt8(ascii: "r"): result.append(0x0D)
      case UInt8(ascii: "t"): result.append(0x09)
      default: return nil
      }
    }
    return String(validating: result, as: UTF8.self)
  }

  /// Reads `word` (`true`, `false`, `null`) when it is next.
  package mutating func literal(_ word: String) -> Bool {
    let end = offset + word.utf8.count
    guard end <= bytes.endIndex, bytes[offset..<end].elementsEqual(word.utf8) else { return false }
    offset = end
    return true
  }

  /// Reads a number in JSON's grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, within
  /// a Double's range, as written; `nil` for anything else (`+1`, `01`, `1.`, `.5`, `1e999`),
  /// which printed back as it is would not be JSON every reader takes.
  package mutating func number() -> String? {
    let start = offset
    func consume(anyOf characters: String) -> Bool {
      guard let byte = current, characters.utf8.contains(byte) else { return false }
      offset += 1
      return true
    }
    func digits() -> Bool {
      let first = offset
      while consume(anyOf: "0123456789") {}
      return offset > first
    }
    _ = consume(anyOf: "-")
    if !consume(anyOf: "0") {
      guard consume(anyOf: "123456789") else { return nil }
      _ = digits()
    }
    if consume(anyOf: "."), !digits() { return nil }
    if consume(anyOf: "eE") {
      _ = consume(anyOf: "+-")
      guard digits() else { return nil }
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    // Beyond a Double's range (`1e999`), readers such as JSONSerialization refuse the number;
    // the journal never stores one, so such text is not read as JSON.
    guard let value = Double(text), value.isFinite else { return nil }
    return text
  }
}

extension JSONScanner where Bytes == ArraySlice<UInt8> {
  /// The members of the object that makes up all of the remaining bytes, each value as its raw
  /// bytes, or `nil`.
  package mutating func objectMembers() -> [String: ArraySlice<UInt8>]? {
    skipWhitespace()
    guard consume(UInt8(ascii: "{")) else { return nil }
    var members: [String: ArraySlice<UInt8>] = [:]
    skipWhitespace()
    if !consume(UInt8(ascii: "}")) {
      while true {
        skipWhitespace()
        guard let key = string() else { return nil }
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { return nil }
        skipWhitespace()
        let valueStart = offset
        guard skipValue() else { return nil }
        members[key] = bytes[valueStart..<offset]
        skipWhitespace()
        if consume(UInt8(ascii: ",")) { continue }
        guard consume(UInt8(ascii: "}")) else { return nil }
        break
      }
    }
    skipWhitespace()
    return current == nil ? members : nil
  }
}
