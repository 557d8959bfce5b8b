import Foundation

/// Finds the extent of JSON values in bytes, without building them.
///
/// It checks only what it needs to find where a value ends (quotes, escapes, nesting), not that
/// the value is valid JSON. Works on any bytes indexed by `Int`: an `UnsafeBufferPointer` to read
/// `Data` without copying it, or an `ArraySlice` of a file's line.
struct JSONScanner<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
  let bytes: Bytes
  /// The index of the next byte to read.
  var offset: Int

  init(bytes: Bytes) {
    self.bytes = bytes
    self.offset = bytes.startIndex
  }

  var isAtEnd: Bool { offset >= bytes.endIndex }

  var current: UInt8? { isAtEnd ? nil : bytes[offset] }

  mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      offset += 1
    }
  }

  mutating func consume(_ byte: UInt8) -> Bool {
    guard current == byte else { return false }
    offset += 1
    return true
  }

  /// Skips a string starting at the current quote; returns whether it held escapes, or `nil`
  /// when it is not a complete string.
  mutating func skipString() -> Bool? {
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
  mutating func skipValue() -> Bool {
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

extension JSONScanner where Bytes == ArraySlice<UInt8> {
  /// The members of the object that makes up all of the remaining bytes, each value as its raw
  /// bytes, or `nil`.
  mutating func objectMembers() -> [String: ArraySlice<UInt8>]? {
    skipWhitespace()
    guard consume(UInt8(ascii: "{")) else { return nil }
    var members: [String: ArraySlice<UInt8>] = [:]
    skipWhitespace()
    if !consume(UInt8(ascii: "}")) {
      while true {
        skipWhitespace()
        let keyStart = offset
        guard skipString() != nil else { return nil }
        guard let key = try? JSONDecoder().decode(String.self, from: Data(bytes[keyStart..<offset]))
        else { return nil }
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
