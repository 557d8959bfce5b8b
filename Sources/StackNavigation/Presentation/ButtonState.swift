import Foundation

/// A button of an alert or a dialog, as data: its label, its role and the action it sends — the
/// Composable Architecture's `ButtonState`.
public struct ButtonState<Action>: Identifiable {
  /// What a button does when tapped.
  public struct Handler {
    /// The action it sends, if any.
    public let action: Action?

    /// Sends `action` (or nothing).
    public static func send(_ action: Action?) -> Self {
      Self(action: action)
    }
  }

  /// What a button means to the one who reads it.
  public enum Role: Hashable, Sendable {
    /// Cancels what the alert or dialog asks.
    case cancel
    /// Destroys something.
    case destructive
  }

  /// The button's identity, new for every button made.
  public let id: UUID
  /// What it does.
  public let action: Handler
  /// Its label.
  public let label: TextState
  /// Its role, if it has one.
  public let role: Role?

  /// A button with a role, an action and a label:
  /// `ButtonState(role: .cancel) { TextState("Cancel") }`.
  public init(
    role: Role? = nil,
    action: Handler = .send(nil),
    label: () -> TextState
  ) {
    self.id = UUID()
    self.role = role
    self.action = action
    self.label = label()
  }

  /// A button that sends `action`: `ButtonState(action: .confirm) { TextState("OK") }`.
  public init(
    role: Role? = nil,
    action: Action,
    label: () -> TextState
  ) {
    self.init(role: role, action: .send(action), label: label)
  }

  /// Calls `perform` with the action the button sends, if any.
  public func withAction(_ perform: (Action?) -> Void) {
    perform(action.action)
  }
}

extension ButtonState.Handler: Equatable where Action: Equatable {}
extension ButtonState.Handler: Hashable where Action: Hashable {}
extension ButtonState.Handler: Sendable where Action: Sendable {}
extension ButtonState: Sendable where Action: Sendable {}

// Equal when they read and act the same: the identity is not compared, as in the Composable
// Architecture.
extension ButtonState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.action == rhs.action && lhs.label == rhs.label && lhs.role == rhs.role
  }
}

extension ButtonState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(action)
    hasher.combine(label)
    hasher.combine(role)
  }
}

/// Builds the buttons of an alert or a dialog.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildBlock(_ buttons: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    buttons.flatMap { $0 }
  }
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
    [button]
  }
  public static func buildExpression(_ buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons
  }
  public static func buildOptional(_ buttons: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    buttons ?? []
  }
  public static func buildEither(first buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons
  }
  public static func buildEither(second buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons
  }
  public static func buildArray(_ buttons: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    buttons.flatMap { $0 }
  }
}

extension ButtonState.Role: Codable {
  public init(from decoder: any Decoder) throws {
    let name = try decoder.singleValueContainer().decode(String.self)
    switch name {
    case "cancel": self = .cancel
    case "destructive": self = .destructive
    default:
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "A button's role is \"cancel\" or \"destructive\", not \"\(name)\"."))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self == .cancel ? "cancel" : "destructive")
  }
}

// A button is stored as `{"action": …, "label": "OK", "role": "cancel"}`, `action` and `role`
// left out when it has none. Its identity is not stored: a decoded button is a new one, so
// replaying the actions that made it gives an equal state.
extension ButtonState: Codable where Action: Codable {
  private enum CodingKeys: String, CodingKey {
    case action, label, role
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let label = try container.decode(TextState.self, forKey: .label)
    self.init(
      role: try container.decodeIfPresent(Role.self, forKey: .role),
      action: .send(try container.decodeIfPresent(Action.self, forKey: .action)),
      label: { label })
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(action.action, forKey: .action)
    try container.encode(label, forKey: .label)
    try container.encodeIfPresent(role, forKey: .role)
  }
}
