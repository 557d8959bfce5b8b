import Foundation

/// The identifier of a session: one navigation history in a journal.
///
/// Any non-empty string works; ``random()`` makes a lowercase UUID.
///
/// ```swift
/// let session: SessionID = "user-42"
/// ```
public struct SessionID: Hashable, Sendable, RawRepresentable {
  /// The identifier as stored in the `sessions.id` column.
  public var rawValue: String

  /// Creates an identifier from its stored text.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// Creates an identifier from its stored text.
  public init(_ rawValue: String) {
    self.rawValue = rawValue
  }

  /// A new identifier made of a random UUID, lowercased.
  public static func random() -> SessionID {
    SessionID(UUID().uuidString.lowercased())
  }
}

extension SessionID: ExpressibleByStringLiteral {
  /// Creates an identifier from a string literal, so tests can write `"user-42"`.
  public init(stringLiteral value: String) {
    self.init(value)
  }
}

extension SessionID: CustomStringConvertible {
  /// The identifier's text.
  public var description: String { rawValue }
}

extension SessionID: Codable {
  /// Decodes an identifier from a plain string.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the identifier as a plain string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
