import Foundation

/// The members of one JSON object line, each kept as its raw bytes.
struct JSONObjectLine {
  var members: [String: ArraySlice<UInt8>]
  var reader: SessionExportReader?

  init(members: [String: ArraySlice<UInt8>], reader: SessionExportReader?) {
    self.members = members
    self.reader = reader
  }

  /// Splits a JSON object into its members; `nil` when the bytes are not one JSON object.
  init?(_ bytes: ArraySlice<UInt8>) {
    var scanner = JSONScanner(bytes: bytes)
    guard let members = scanner.objectMembers() else { return nil }
    self.members = members
    self.reader = nil
  }

  private func fail(_ problem: String) -> StorageError {
    reader?.malformed(problem)
      ?? StorageError(code: .invalidData, message: "A line \(problem).")
  }

  private func raw(_ key: String) throws -> ArraySlice<UInt8> {
    guard let value = members[key] else { throw fail("has no `\(key)`") }
    return value
  }

  func string(_ key: String) throws -> String {
    guard let value = try? JSONDecoder().decode(String.self, from: Data(try raw(key))) else {
      throw fail("has a `\(key)` that is not a string")
    }
    return value
  }

  func optionalString(_ key: String) throws -> String? {
    guard let value = members[key], !value.elementsEqual("null".utf8) else { return nil }
    return try string(key)
  }

  /// A member that is an integer written as JSON writes one (`-?(0|[1-9][0-9]*)`) within
  /// `Int64`: `+1`, `01`, `1.0` and `1e2` are refused, as JSON readers other than Swift's
  /// `Int64(_:)` would read them differently or not at all.
  func int64(_ key: String) throws -> Int64 {
    let raw = try raw(key)
    var scanner = JSONScanner(bytes: raw)
    guard let text = scanner.number(), scanner.isAtEnd,
      !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let value = Int64(text)
    else {
      let shown = StorageError.printable(String(decoding: raw.prefix(40), as: UTF8.self))
      throw fail("has a `\(key)` that is not an integer as JSON writes one: `\(shown)`")
    }
    return value
  }

  func int(_ key: String) throws -> Int {
    Int(try int64(key))
  }

  func optionalInt(_ key: String) throws -> Int64? {
    guard let value = members[key], !value.elementsEqual("null".utf8) else { return nil }
    return try int64(key)
  }

  func time(_ key: String) throws -> Date {
    let text = try string(key)
    guard let date = Timestamp.date(from: text) else {
      throw fail("has a `\(key)` of `\(text)`, not a time like 2025-01-31T09:30:00.000Z")
    }
    return date
  }

  func object(_ key: String) throws -> JSONObjectLine {
    guard let object = JSONObjectLine(try raw(key)) else {
      throw fail("has a `\(key)` that is not a JSON object")
    }
    return JSONObjectLine(members: object.members, reader: reader)
  }

  /// A member that holds any JSON value, as text exactly as written.
  func json(_ key: String) throws -> String {
    let value = try raw(key)
    guard JSONText.isJSON(value) else { throw fail("has a `\(key)` that is not valid JSON") }
    return String(decoding: value, as: UTF8.self)
  }
}
