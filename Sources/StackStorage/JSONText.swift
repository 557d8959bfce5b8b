import Foundation

/// Small, allocation-free readings of JSON text.
enum JSONText {
  /// The single key of a JSON object with exactly one key, or `nil`.
  ///
  /// This is the case name of an enum element encoded by synthesized `Codable`:
  /// `{"counter":{"_0":{…}}}` gives `counter`.
  static func caseName(of json: Data) -> String? {
    json.withUnsafeBytes { raw in
      var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
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
  static func text(_ data: Data) -> String? {
    String(data: data, encoding: .utf8)
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }

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

    /// Skips one value (object, array, string or scalar); `false` when it is incomplete.
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
          !(byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}")
            || byte == UInt8(ascii: "]") || byte == 0x20 || byte == 0x0A || byte == 0x0D
            || byte == 0x09)
        {
          offset += 1
        }
        return offset > start
      }
    }
  }
}
