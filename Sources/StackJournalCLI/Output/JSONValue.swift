import Foundation
import StackJournalCore

/// A JSON value that keeps the order of object keys and the text of numbers, so stored JSON
/// prints back exactly as written.
enum JSONValue: Sendable {
  case null
  case bool(Bool)
  /// A number, as written.
  case number(String)
  case string(String)
  case array([JSONValue])
  /// An object, keys in order.
  case object([(String, JSONValue)])

  /// An integer.
  static func int<I: BinaryInteger>(_ value: I) -> JSONValue { .number(String(value)) }

  /// A string, or `null`.
  static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

  /// Parses JSON text; `nil` when it is not exactly one JSON value, or nests deeper than a
  /// journal stores (``JSONText/maximumNesting``): parsing, printing and comparing recurse once
  /// per level, so a hand-edited row never takes them deeper than that.
  init?(parsing text: String) {
    guard JSONText.nesting(of: text.utf8) <= JSONText.maximumNesting else { return nil }
    var parser = JSONValueParser(text)
    guard let value = parser.value() else { return nil }
    parser.scanner.skipWhitespace()
    guard parser.scanner.isAtEnd else { return nil }
    self = value
  }

  /// Parses JSON text, keeping text that does not parse as a string.
  init(lenient text: String) {
    self = JSONValue(parsing: text) ?? .string(text)
  }

  /// The member of an object.
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// Compact text, with no spaces.
  var compact: String {
    var text = ""
    write(to: &text, indent: nil, level: 0)
    return text
  }

  /// Text indented by two spaces per level.
  var pretty: String {
    var text = ""
    write(to: &text, indent: "  ", level: 0)
    return text
  }

  /// Text for people: strings without quotes, everything else compact.
  var plain: String {
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
  static func quoted(_ value: String) -> String {
    JSONText.literal(value)
  }
}

/// Builds a ``JSONValue`` from the tokens of StackStorage's `JSONScanner`.
private struct JSONValueParser {
  var scanner: JSONScanner<[UInt8]>

  init(_ text: String) {
    scanner = JSONScanner(bytes: Array(text.utf8))
  }

  mutating func value() -> JSONValue? {
    scanner.skipWhitespace()
    guard let first = scanner.current else { return nil }
    switch first {
    case UInt8(ascii: "{"):
      return container(closing: UInt8(ascii: "}")) { parser in
        parser.scanner.skipWhitespace()
        guard let key = parser.scanner.string() else { return nil }
        parser.scanner.skipWhitespace()
        guard parser.scanner.consume(UInt8(ascii: ":")), let value = parser.value() else {
          return nil
        }
        return (key, value)
      }.map(JSONValue.object)
    case UInt8(ascii: "["):
      return container(closing: UInt8(ascii: "]")) { $0.value() }.map(JSONValue.array)
    case UInt8(ascii: "\""):
      return scanner.string().map(JSONValue.string)
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

  /// The members of an object or the values of an array, after its opening bracket.
  private mutating func container<Member>(
    closing: UInt8,
    _ member: (inout JSONValueParser) -> Member?
  ) -> [Member]? {
    scanner.offset += 1
    var members: [Member] = []
    scanner.skipWhitespace()
    if scanner.consume(closing) { return members }
    while true {
      guard let next = member(&self) else { return nil }
      members.append(next)
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: ",")) { continue }
      return scanner.consume(closing) ? members : nil
    }
  }
}

extension JSONValue: Equatable {
  /// Equal values; numbers compare by value, object members in any order.
  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b || Double(a) == Double(b)
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count
        && a.allSatisfy { key, value in b.first { $0.0 == key }.map { $0.1 == value } ?? false }
    default: false
    }
  }
}
