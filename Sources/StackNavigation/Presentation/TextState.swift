/// Text for an alert, a dialog or a button, kept as data so it can be compared, tested and
/// journaled: the Composable Architecture's `TextState`, without styling (there is no view to
/// style here).
public struct TextState: Equatable, Hashable, Sendable {
  /// The text.
  public var string: String

  /// Text to show as it is.
  public init(verbatim string: String) {
    self.string = string
  }

  /// Text to show as it is (there is no localization table off a UI).
  public init(_ string: some StringProtocol) {
    self.string = String(string)
  }

  /// Two texts, one after the other.
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(verbatim: lhs.string + rhs.string)
  }
}

extension TextState: ExpressibleByStringInterpolation {
  public init(stringLiteral value: String) {
    self.init(verbatim: value)
  }
}

extension TextState: CustomStringConvertible {
  public var description: String { string }
}

extension TextState: CustomDumpRepresentable {
  public var customDumpValue: Any { string }
}

// A text is stored as its string: `"Saved"`.
extension TextState: Codable {
  public init(from decoder: any Decoder) throws {
    self.init(verbatim: try decoder.singleValueContainer().decode(String.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(string)
  }
}
