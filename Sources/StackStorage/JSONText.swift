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

  /// Whether the bytes are one JSON value, a fragment such as `42` or `"note"` included, as
  /// `JSONSerialization` reads it: what an import of a session export accepts.
  package static func isJSON(_ bytes: some Sequence<UInt8>) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
  }
}
