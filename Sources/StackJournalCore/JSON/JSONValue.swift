import Foundation

/// A parsed JSON value kept lean: numbers as their text, objects as their members in order, so
/// stored JSON prints back exactly as written.
///
/// The one JSON tree of the package: what the storage parses to look inside stored JSON (the
/// stacks in a snapshot's state) and to check that stored text is JSON at all, and what the CLI
/// parses, builds and prints. An object graph of Foundation's `JSONSerialization` took about a
/// kilobyte per small object, so a snapshot of 80,000 elements took a gigabyte to check.
package enum JSONValue: Sendable {
  case null
  case bool(Bool)
  /// A number, as written.
  case number(String)
  case string(String)
  case array([JSONValue])
  /// An object's members, in the order written.
  case object([(key: String, value: JSONValue)])

  /// Parses JSON text: one value, nested at most ``JSONText/maximumNesting`` deep (parsing,
  /// printing and comparing recurse once per level, so a hand-edited row never takes them
  /// deeper than that), strings without raw control characters; `nil` for anything else.
  package static func parse(_ bytes: [UInt8]) -> JSONValue? {
    guard JSONText.nesting(of: bytes) <= JSONText.maximumNesting else { return nil }
    var scanner = JSONScanner(bytes: bytes)
    guard let value = parseValue(&scanner) else { return nil }
    scanner.skipWhitespace()
    return scanner.isAtEnd ? value : nil
  }

  /// Parses JSON text (see ``parse(_:)-([UInt8])``).
  package static func parse(_ text: String) -> JSONValue? {
    parse(Array(text.utf8))
  }

  /// Parses JSON text as ``parse(_:)-([UInt8])`` does.
  package init?(parsing text: String) {
    guard let value = Self.parse(text) else { return nil }
    self = value
  }

  /// Parses JSON text, keeping text that does not parse as a string.
  package init(lenient text: String) {
    self = Self.parse(text) ?? .string(text)
  }

  /// An integer.
  package static func int<I: BinaryInteger>(_ value: I) -> JSONValue { .number(String(value)) }

  /// A string, or `null`.
  package static func optional(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }

  /// The value of an object's member (the last, when a key is written twice, as `JSONDecoder`
  /// reads it).
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// The number as a 64-bit integer, when it is one.
  package var int64: Int64? {
    guard case .number(let text) = self else { return nil }
    if let value = Int64(text) { return value }
    guard let value = Double(text), value.rounded() == value, abs(value) < 9.2e18 else {
      return nil
    }
    return Int64(value)
  }

  // Recursion is bounded: ``parse(_:)`` checked the nesting first.
  private static func parseValue(_ scanner: inout JSONScanner<[UInt8]>) -> JSONValue? {
    scanner.skipWhitespace()
    guard let first = scanner.current else { return nil }
    switch first {
    case UInt8(ascii: "{"):
      scanner.offset += 1
      var members: [(key: String, value: JSONValue)] = []
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
      var values: [JSONValue] = []
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
      return parseString(&scanner).map(JSONValue.string)
    case UInt8(ascii: "t"):
      return scanner.literal("true") ? .bool(true) : nil
    case UInt8(ascii: "f"):
      return scanner.literal("false") ? .bool(false) : nil
    case UInt8(ascii: "n"):
      return scanner.literal("null") ? .null : nil
    default:
      return scanner.number().map(JSONValue.number)
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

extension JSONValue: Equatable {
  /// Equal values: numbers by value (`1` and `1.0`), object members in any order.
  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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

extension JSONValue {
  /// Compact text, with no spaces.
  package var compact: String {
    var text = ""
    write(to: &text, indent: nil, level: 0)
    return text
  }

  /// Text indented by two spaces per level.
  package var pretty: String {
    var text = ""
    write(to: &text, indent: "  ", level: 0)
    return text
  }

  /// Text for people: strings without quotes, everything else compact.
  package var plain: String {
    if case .string(let text) = self { return text }
    return compact
  }

  private func write(to text: inout String, indent: String?, level: Int) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .number(let value): text += value
    case .string(let value): text += JSONValue.quoted(value)
    case .array(let values):
      guard !values.isEmpty else {
        text += "[]"
        return
      }
      text += "["
      for (index, value) in values.enumerated() {
        if index > 0 { text += "," }
        if let indent { text += "\n" + String(repeating: indent, count: level + 1) }
        value.write(to: &text, indent: indent, level: level + 1)
      }
      if let indent { text += "\n" + String(repeating: indent, count: level) }
      text += "]"
    case .object(let members):
      guard !members.isEmpty else {
        text += "{}"
        return
      }
      text += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { text += "," }
        if let indent { text += "\n" + String(repeating: indent, count: level + 1) }
        text += JSONValue.quoted(key)
        text += indent == nil ? ":" : ": "
        value.write(to: &text, indent: indent, level: level + 1)
      }
      if let indent { text += "\n" + String(repeating: indent, count: level) }
      text += "}"
    }
  }

  /// A JSON string literal.
  package static func quoted(_ value: String) -> String {
    JSONText.literal(value)
  }
}
