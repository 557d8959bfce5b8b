import Foundation

/// A parsed JSON value kept lean: numbers as their text, objects as their members in order.
///
/// What the storage parses to look inside stored JSON (the stacks in a snapshot's state) and
/// to check that stored text is JSON at all: an object graph of Foundation's
/// `JSONSerialization` took about a kilobyte per small object, so a snapshot of 80,000 elements
/// took a gigabyte to check.
enum JSONNode {
  case null
  case bool(Bool)
  /// A number, as written.
  case number(String)
  case string(String)
  case array([JSONNode])
  /// An object's members, in the order written.
  case object([(key: String, value: JSONNode)])

  /// Parses JSON text: one value, nested at most ``JSONText/maximumNesting`` deep, strings
  /// without raw control characters; `nil` for anything else.
  static func parse(_ bytes: [UInt8]) -> JSONNode? {
    guard JSONText.nesting(of: bytes) <= JSONText.maximumNesting else { return nil }
    var scanner = JSONScanner(bytes: bytes)
    guard let value = parseValue(&scanner) else { return nil }
    scanner.skipWhitespace()
    return scanner.isAtEnd ? value : nil
  }

  /// Parses JSON text (see ``parse(_:)-([UInt8])``).
  static func parse(_ text: String) -> JSONNode? {
    parse(Array(text.utf8))
  }

  /// The value of an object's member.
  subscript(key: String) -> JSONNode? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// The number as a 64-bit integer, when it is one.
  var int64: Int64? {
    guard case .number(let text) = self else { return nil }
    if let value = Int64(text) { return value }
    guard let value = Double(text), value.rounded() == value, abs(value) < 9.2e18 else {
      return nil
    }
    return Int64(value)
  }

  // Recursion is bounded: ``parse(_:)`` checked the nesting first.
  private static func parseValue(_ scanner: inout JSONScanner<[UInt8]>) -> JSONNode? {
    scanner.skipWhitespace()
    guard let first = scanner.current else { return nil }
    switch first {
    case UInt8(ascii: "{"):
      scanner.offset += 1
      var members: [(key: String, value: JSONNode)] = []
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: "}")) { return .object(members) }
      while true {
        scanner.skipWhitespace()
        guard let key = parseString(&scanner) else { return nil }
        scanner.skipWhitespace()
        guard scanner.consume(UInt8(ascii: ":")), let value = parseValue(&scanner) else {
          return nil
        }
        members.append((key, value))
        scanner.skipWhitespace()
        if scanner.consume(UInt8(ascii: ",")) { continue }
        return scanner.consume(UInt8(ascii: "}")) ? .object(members) : nil
      }
    case UInt8(ascii: "["):
      scanner.offset += 1
      var values: [JSONNode] = []
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: "]")) { return .array(values) }
      while true {
        guard let value = parseValue(&scanner) else { return nil }
        values.append(value)
        scanner.skipWhitespace()
        if scanner.consume(UInt8(ascii: ",")) { continue }
        return scanner.consume(UInt8(ascii: "]")) ? .array(values) : nil
      }
    case UInt8(ascii: "\""):
      return parseString(&scanner).map(JSONNode.string)
    case UInt8(ascii: "t"):
      return scanner.literal("true") ? .bool(true) : nil
    case UInt8(ascii: "f"):
      return scanner.literal("false") ? .bool(false) : nil
    case UInt8(ascii: "n"):
      return scanner.literal("null") ? .null : nil
    default:
      return scanner.number().map(JSONNode.number)
    }
  }

  /// A string, refused when it holds a raw control character (JSON allows them escaped only).
  private static func parseString(_ scanner: inout JSONScanner<[UInt8]>) -> String? {
    let start = scanner.offset
    guard let text = scanner.string() else { return nil }
    guard !scanner.bytes[start..<scanner.offset].contains(where: { $0 < 0x20 }) else {
      return nil
    }
    return text
  }
}

extension JSONNode: Equatable {
  /// Equal values: numbers by value (`1` and `1.0`), object members in any order.
  static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)):
      a == b || (Int64(a) != nil && Int64(b) != nil ? Int64(a) == Int64(b) : Double(a) == Double(b))
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count
        && a.allSatisfy { member in
          b.last { $0.key == member.key }.map { $0.value == member.value } ?? false
        }
    default: false
    }
  }
}
