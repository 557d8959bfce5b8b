/// Checks JSON text in one pass over its bytes, building nothing: what ``JSONText`` uses to
/// judge stored JSON, so checking a row costs no memory beyond the row.
///
/// The rules are ``JSONValue/parse(_:)``'s: one value, strings without raw control characters
/// and with valid escapes, numbers in JSON's grammar within a Double's range.
enum JSONValidation {
  /// Whether the bytes are valid UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
  static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let end = bytes.count
    while index < end {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      let following: Int
      switch lead {
      case 0xC2...0xDF: following = 1
      case 0xE0: following = 2; low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: following = 2
      case 0xED: following = 2; high = 0x9F
      case 0xF0: following = 3; low = 0x90
      case 0xF1...0xF3: following = 3
      case 0xF4: following = 3; high = 0x8F
      default: return false
      }
      guard index + following < end, (low...high).contains(bytes[index + 1]) else { return false }
      for offset in stride(from: 2, through: following, by: 1)
      where !(0x80...0xBF).contains(bytes[index + offset]) {
        return false
      }
      index += following + 1
    }
    return true
  }

  /// Whether the bytes are one JSON value with white space around it. The caller has checked
  /// the nesting (``JSONText/nesting(of:)``), which bounds the recursion.
  static func isValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var scanner = JSONScanner(bytes: bytes)
    guard value(&scanner) else { return false }
    scanner.skipWhitespace()
    return scanner.isAtEnd
  }

  private static func value(_ scanner: inout JSONScanner<UnsafeBufferPointer<UInt8>>) -> Bool {
    scanner.skipWhitespace()
    guard let first = scanner.current else { return false }
    switch first {
    case UInt8(ascii: "{"):
      scanner.offset += 1
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: "}")) { return true }
      while true {
        scanner.skipWhitespace()
        guard string(&scanner) else { return false }
        scanner.skipWhitespace()
        guard scanner.consume(UInt8(ascii: ":")), value(&scanner) else { return false }
        scanner.skipWhitespace()
        if scanner.consume(UInt8(ascii: ",")) { continue }
        return scanner.consume(UInt8(ascii: "}"))
      }
    case UInt8(ascii: "["):
      scanner.offset += 1
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: "]")) { return true }
      while true {
        guard value(&scanner) else { return false }
        scanner.skipWhitespace()
        if scanner.consume(UInt8(ascii: ",")) { continue }
        return scanner.consume(UInt8(ascii: "]"))
      }
    case UInt8(ascii: "\""):
      return string(&scanner)
    case UInt8(ascii: "t"):
      return scanner.literal("true")
    case UInt8(ascii: "f"):
      return scanner.literal("false")
    case UInt8(ascii: "n"):
      return scanner.literal("null")
    default:
      return scanner.number() != nil
    }
  }

  /// A string without raw control characters whose escapes are JSON's. A `\u` escape is read
  /// by ``JSONScanner/string()``, which refuses what Foundation's decoder refuses (a lone
  /// surrogate); the other escapes are checked here.
  private static func string(_ scanner: inout JSONScanner<UnsafeBufferPointer<UInt8>>) -> Bool {
    let start = scanner.offset
    guard let hasEscapes = scanner.skipString() else { return false }
    let bytes = scanner.bytes
    var index = start + 1
    var unicodeEscape = false
    while index < scanner.offset - 1 {
      let byte = bytes[index]
      if byte < 0x20 { return false }
      if byte == UInt8(ascii: "\\") {
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          break
        case UInt8(ascii: "u"): unicodeEscape = true
        default: return false
        }
        index += 2
        continue
      }
      index += 1
    }
    guard hasEscapes, unicodeEscape else { return true }
    let end = scanner.offset
    scanner.offset = start
    guard scanner.string() != nil else { return false }
    return scanner.offset == end
  }
}
