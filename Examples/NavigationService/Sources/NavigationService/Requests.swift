import Foundation
import StackStorage

/// A sequence number from a query or body: 0 or more.
func parseSequence(_ text: String) throws -> Int64 {
  guard text.count <= 20, let value = Int64(text), value >= 0 else { throw APIError.badSequence }
  return value
}

/// A moment from a query or body, ISO 8601 with or without fractional seconds.
func parseTime(_ text: String) throws -> Date {
  let plain = ISO8601DateFormatter()
  let fractional = ISO8601DateFormatter()
  fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  guard text.count <= 40, let date = fractional.date(from: text) ?? plain.date(from: text) else {
    throw APIError(
      .badRequest, code: "badTime",
      message: "A time is ISO 8601, such as 2026-01-02T03:04:05Z.")
  }
  return date
}

/// The position of a decoding failure, for an error message (keys only, bounded).
func describe(_ error: DecodingError) -> String {
  let path: [any CodingKey]
  switch error {
  case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
    .valueNotFound(_, let context):
    path = context.codingPath
  @unknown default:
    path = []
  }
  // Keys come from the client: only plain identifiers are repeated, anything else is `?`.
  let text = path.map { key -> String in
    if let index = key.intValue { return String(index) }
    let plain =
      key.stringValue.count <= 40
      && key.stringValue.unicodeScalars.allSatisfy {
        $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
      }
    return plain ? key.stringValue : "?"
  }.joined(separator: ".")
  return text.isEmpty ? "at the top level" : "at \(String(text.prefix(120)))"
}
