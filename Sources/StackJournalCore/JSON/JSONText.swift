import Foundation

/// Small, allocation-free readings of JSON text.
public enum JSONText {
  /// A string as a JSON string literal, quoted and escaped.
  public static func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case let scalar where scalar.value < 0x20:
        result += String(format: "\\u%04x", scalar.value)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// The single key of a JSON object with exactly one key, or `nil`.
  ///
  /// This is the case name of an enum element encoded by synthesized `Codable`:
  /// `{"counter":{"_0":{…}}}` gives `counter`.
  static func caseName(of json: Data) -> String? {
    json.withUnsafeBytes { raw in
      var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
      scanner.skipWhitespace()
      guard scanner.consume(UInt8(ascii: "{")) else { return nil }
      scanner.skipWhitespace()
      let keyStart = scanner.offset
      guard let hasEscapes = scanner.skipString() else { return nil }
      let keyEnd = scanner.offset
      scanner.skipWhitespace()
      guard scanner.consume(UInt8(ascii: ":")), scanner.skipValue() else { return nil }
      scanner.skipWhitespace()
      guard scanner.consume(UInt8(ascii: "}")) else { return nil }
      scanner.skipWhitespace()
      guard scanner.isAtEnd else { return nil }
      let quoted = UnsafeRawBufferPointer(rebasing: raw[keyStart..<keyEnd])
      if hasEscapes {
        return try? JSONDecoder().decode(String.self, from: Data(quoted))
      }
      return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
    }
  }

  /// The UTF-8 text of JSON bytes, or `nil` when they are not valid UTF-8.
  package static func text(_ data: Data) -> String? {
    String(data: data, encoding: .utf8)
  }

  /// The deepest nesting of arrays and objects a journal stores: JSON nested deeper is refused
  /// where it enters (an append, an import), so no reader meets it in a sound journal.
  public static let maximumNesting = 512

  /// Whether the bytes are JSON a journal may store: see ``storageProblem(_:)``.
  package static func isJSON(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.withContiguousStorageIfAvailable { storageProblem($0) == nil }
      ?? (storageProblem(Data(bytes)) == nil)
  }

  /// The one check of stored JSON, used by appends, imports, `verify` and exports: why the
  /// bytes may not be stored as JSON text, or `nil` when they may. They must be valid UTF-8
  /// without a NUL character, nest arrays and objects at most ``maximumNesting`` deep, and be
  /// one JSON value (a fragment such as `42` or `"note"` included).
  public static func storageProblem(_ data: Data) -> String? {
    data.withUnsafeBytes { storageProblem($0.bindMemory(to: UInt8.self)) }
  }

  /// ``storageProblem(_:)-(Data)`` on bytes in place: a few passes over them, building nothing
  /// (``JSONValidation``), so checking a row costs no memory beyond the row.
  package static func storageProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard JSONValidation.isUTF8(bytes) else { return "is not UTF-8 text" }
    guard !bytes.contains(0) else { return "contains a NUL character" }
    guard nesting(of: bytes) <= maximumNesting else {
      return "nests arrays and objects deeper than \(maximumNesting) levels"
    }
    guard JSONValidation.isValue(bytes) else { return "is not JSON" }
    return nil
  }

  /// The deepest nesting of arrays and objects in JSON text, brackets inside strings aside;
  /// found without recursion, whatever the depth.
  package static func nesting(of bytes: some Sequence<UInt8>) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return deepest
  }
}
