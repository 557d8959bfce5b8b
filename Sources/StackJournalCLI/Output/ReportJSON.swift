import Foundation

/// How a command's `--json` report is written: an `Encodable` value, pretty-printed, keys sorted
/// (the same document for the same file), slashes as they are (paths stay readable).
enum ReportJSON {
  /// The report's JSON text.
  static func text(_ report: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(report), as: UTF8.self)
  }
}

/// An optional member written as `null` when it is absent, where synthesized `Encodable` would
/// leave it out: a report's readers find every key in every document.
@propertyWrapper
struct NullWhenAbsent<Value: Encodable & Sendable>: Encodable, Sendable {
  var wrappedValue: Value?

  init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}
