import Foundation

/// The identifier of a session: one navigation history in a journal.
///
/// An identifier is 1 to ``maximumLength`` Unicode scalars of printable text: no control or
/// format characters (newlines, escapes, bidirectional overrides), no line or paragraph
/// separators, no private-use, unassigned or surrogate code points, and no space at either end.
/// Writing a session under any other identifier is refused (``validate()``); identifiers read
/// from older files are shown escaped (``description``). ``random()`` makes a lowercase UUID.
///
/// An identifier is its bytes: it is stored as given, never normalized, and two identifiers are
/// equal only when their UTF-8 bytes are (``==(_:_:)``), as SQLite and PostgreSQL compare the
/// `sessions.id` column. `café` written with `é` (U+00E9, NFC) and with `e` and a combining
/// accent (U+0065 U+0301, NFD) are two sessions, though Swift's `String` calls them equal.
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

extension SessionID {
  /// Whether two identifiers have the same UTF-8 bytes: the equality of the stored column, not
  /// the canonical equivalence of `String`'s `==`, which would take one session for another.
  public static func == (lhs: SessionID, rhs: SessionID) -> Bool {
    lhs.rawValue.utf8.elementsEqual(rhs.rawValue.utf8)
  }

  /// Hashes the identifier's UTF-8 bytes, in agreement with ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) {
    var text = rawValue
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    hasher.combine(text.utf8.count)
  }
}

extension SessionID: ExpressibleByStringLiteral {
  /// Creates an identifier from a string literal, so tests can write `"user-42"`.
  public init(stringLiteral value: String) {
    self.init(value)
  }
}

extension SessionID {
  /// The most Unicode scalars an identifier may have.
  public static let maximumLength = 200

  /// Why the identifier may not be written, or `nil` when it may.
  public var problem: String? {
    let scalars = rawValue.unicodeScalars
    if scalars.isEmpty { return "it is empty" }
    if scalars.count > Self.maximumLength {
      return "it has \(scalars.count) characters, more than \(Self.maximumLength)"
    }
    if let bad = scalars.first(where: { !Self.isPrintableScalar($0) }) {
      return "it holds the character U+\(String(bad.value, radix: 16, uppercase: true)), which "
        + "is not printable text"
    }
    if scalars.first!.properties.isWhitespace || scalars.last!.properties.isWhitespace {
      return "it starts or ends with a space"
    }
    return nil
  }

  /// Throws ``StorageError/Code/invalidSessionID`` when the identifier may not be written.
  public func validate() throws {
    guard let problem else { return }
    throw StorageError(
      code: .invalidSessionID,
      message: "The session identifier \(self) cannot be used: \(problem). An identifier is 1 to "
        + "\(Self.maximumLength) characters of printable text with no space at either end. "
        + "Nothing was written.")
  }

  /// Whether a scalar is printable text: not a control or format character, a line or
  /// paragraph separator, nor a private-use, surrogate or unassigned code point.
  public static func isPrintableScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate,
      .unassigned:
      false
    default:
      true
    }
  }

  /// How a character that is not printable text is shown to people: `\u{1B}`, as Swift writes
  /// it in a string literal.
  public static func escapedScalar(_ scalar: Unicode.Scalar) -> String {
    "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
  }

  /// The identifier as shown to people: characters that are not printable text escaped as
  /// `\u{…}`, a backslash doubled, and an identifier longer than ``maximumLength`` cut with
  /// the count of what was left out. Equal to ``rawValue`` for every valid identifier without
  /// a backslash.
  public var escaped: String {
    var text = ""
    var count = 0
    for scalar in rawValue.unicodeScalars {
      if count == Self.maximumLength {
        text += "…(\(rawValue.unicodeScalars.count - count) more)"
        break
      }
      count += 1
      if scalar == "\\" {
        text += "\\\\"
      } else if Self.isPrintableScalar(scalar) {
        text.unicodeScalars.append(scalar)
      } else {
        text += Self.escapedScalar(scalar)
      }
    }
    return text.isEmpty ? "\"\"" : text
  }
}

extension SessionID: CustomStringConvertible {
  /// The identifier as shown to people: ``escaped``.
  public var description: String { escaped }
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
