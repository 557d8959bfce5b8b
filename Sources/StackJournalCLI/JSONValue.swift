import Foundation
import StackStorage

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

  /// Parses JSON text; `nil` when it is not exactly one JSON value.
  init?(parsing text: String) {
    var parser = Parser(bytes: Array(text.utf8))
    guard let value = parser.value() else { return nil }
    parser.skipWhitespace()
    guard parser.offset == parser.bytes.count else { return nil }
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

  private struct Parser {
    let bytes: [UInt8]
    var offset = 0

    mutating func skipWhitespace() {
      while offset < bytes.count,
        bytes[offset] == 0x20 || bytes[offset] == 0x0A || bytes[offset] == 0x0D
          || bytes[offset] == 0x09
      {
        offset += 1
      }
    }

    mutating func literal(_ word: String) -> Bool {
      let utf8 = Array(word.utf8)
      guard offset + utf8.count <= bytes.count, Array(bytes[offset..<offset + utf8.count]) == utf8
      else { return false }
      offset += utf8.count
      return true
    }

    mutating func value() -> JSONValue? {
      skipWhitespace()
      guard offset < bytes.count else { return nil }
      switch bytes[offset] {
      case UInt8(ascii: "{"):
        offset += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
          offset += 1
          return .object(members)
        }
        while true {
          skipWhitespace()
          guard let key = string() else { return nil }
          skipWhitespace()
          guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return nil }
          offset += 1
          guard let value = value() else { return nil }
          members.append((key, value))
          skipWhitespace()
          guard offset < bytes.count else { return nil }
          if bytes[offset] == UInt8(ascii: ",") {
            offset += 1
            continue
          }
          guard bytes[offset] == UInt8(ascii: "}") else { return nil }
          offset += 1
          return .object(members)
        }
      case UInt8(ascii: "["):
        offset += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
          offset += 1
          return .array(values)
        }
        while true {
          guard let value = value() else { return nil }
          values.append(value)
          skipWhitespace()
          guard offset < bytes.count else { return nil }
          if bytes[offset] == UInt8(ascii: ",") {
            offset += 1
            continue
          }
          guard bytes[offset] == UInt8(ascii: "]") else { return nil }
          offset += 1
          return .array(values)
        }
      case UInt8(ascii: "\""):
        return string().map(JSONValue.string)
      case UInt8(ascii: "t"):
        return literal("true") ? .bool(true) : nil
      case UInt8(ascii: "f"):
        return literal("false") ? .bool(false) : nil
      case UInt8(ascii: "n"):
        return literal("null") ? .null : nil
      default:
        return number().map(JSONValue.number)
      }
    }

    /// A number in JSON's grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, within
    /// a Double's range, as written; `nil` for anything else (`+1`, `01`, `1.`, `.5`, `1e999`),
    /// which printed back as it is would not be JSON every reader takes.
    mutating func number() -> String? {
      let start = offset
      func consume(_ characters: String) -> Bool {
        guard offset < bytes.count, characters.utf8.contains(bytes[offset]) else { return false }
        offset += 1
        return true
      }
      func digits() -> Bool {
        let first = offset
        while consume("0123456789") {}
        return offset > first
      }
      _ = consume("-")
      if !consume("0") {
        guard consume("123456789") else { return nil }
        _ = digits()
      }
      if consume("."), !digits() { return nil }
      if consume("eE") {
        _ = consume("+-")
        guard digits() else { return nil }
      }
      let text = String(decoding: bytes[start..<offset], as: UTF8.self)
      // Beyond a Double's range (`1e999`), readers such as JSONSerialization refuse the number
      // (found by fuzzing); the journal never stores one, so such text is not read as JSON.
      guard let value = Double(text), value.isFinite else { return nil }
      return text
    }

    mutating func string() -> String? {
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
      let start = offset
      offset += 1
      var escaped = false
      while offset < bytes.count {
        let byte = bytes[offset]
        offset += 1
        if byte == UInt8(ascii: "\\") {
          escaped = true
          offset += 1
        } else if byte == UInt8(ascii: "\"") {
          let raw = bytes[start..<offset]
          if !escaped { return String(decoding: raw.dropFirst().dropLast(), as: UTF8.self) }
          return try? JSONDecoder().decode(String.self, from: Data(raw))
        }
      }
      return nil
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
