import Foundation
import Hummingbird
import StackStorage

struct CreateRequest: Decodable {
  var id: String?
}

struct ForkRequest: Decodable {
  var at: Int64?
  var time: String?
  var into: String?
}

struct SessionCreated: Encodable {
  var session: String
  var sequence: Int64
  var stack: StackView
  var forkedFrom: String?
  var forkedAt: Int64?
}

struct Health: Encodable {
  var status: String
  var cachedSessions: Int?
  var rehydrations: Int?
  var evictions: Int?
}

/// Encodes a value as a JSON response.
func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  let data = try encoder.encode(value)
  return Response(
    status: status, headers: [.contentType: "application/json; charset=utf-8"],
    body: .init(byteBuffer: ByteBuffer(bytes: data)))
}

/// Reads the body, at most `limit` bytes (more is a 413).
func body(of request: Request, limit: Int) async throws -> Data {
  let buffer = try await request.body.collect(upTo: limit)
  return Data(buffer.readableBytesView)
}

/// The session identifier of a path, validated (never repeated in an error).
func sessionID(_ context: some RequestContext) throws -> SessionID {
  let raw = try context.parameters.require("id")
  let id = SessionID(raw.removingPercentEncoding ?? raw)
  // The library's rules, not the service's narrower ones: sessions written by older versions
  // stay reachable.
  if id.problem != nil { throw APIError.invalidSessionID }
  return id
}

/// A sequence number from a query or body: 0 or more.
func parseSequence(_ text: String) throws -> Int64 {
  guard text.count <= 20, let value = Int64(text), value >= 0 else {
    throw APIError(
      .badRequest, code: "badSequence", message: "A sequence is a whole number, 0 or more.")
  }
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
