import Foundation

/// An alert, as data: its title, message and buttons — the Composable Architecture's
/// `AlertState`. A feature presents one by setting it (`state.alert = AlertState { … }`), and any
/// action from it dismisses it (`.ifLet(\.$alert, action: \.alert)`).
public struct AlertState<Action>: Identifiable {
  /// The alert's identity, new for every alert made: a new alert with the same text is another
  /// alert.
  public let id: UUID
  /// The buttons.
  public var buttons: [ButtonState<Action>]
  /// The message under the title.
  public var message: TextState?
  /// The title.
  public var title: TextState

  /// An alert: `AlertState { TextState("Saved") } actions: { … } message: { … }`.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

/// A confirmation dialog, as data — the Composable Architecture's `ConfirmationDialogState`.
public struct ConfirmationDialogState<Action>: Identifiable {
  /// Whether a dialog shows its title.
  public enum Visibility: Hashable, Sendable {
    case automatic, hidden, visible
  }

  /// The dialog's identity, new for every dialog made.
  public let id: UUID
  /// The buttons.
  public var buttons: [ButtonState<Action>]
  /// The message under the title.
  public var message: TextState?
  /// The title.
  public var title: TextState
  /// Whether the title is shown.
  public var titleVisibility: Visibility

  /// A dialog: `ConfirmationDialogState(titleVisibility: .visible) { TextState("Delete?") } …`.
  public init(
    titleVisibility: Visibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

/// State presented briefly and dismissed by the first action sent from it: alerts and
/// confirmation dialogs. Such state has no behavior of its own.
public protocol _EphemeralState<Action> {
  associatedtype Action
}

extension _EphemeralState {
  /// Whether `action` comes from this kind of state: an action of its type, or an enum whose
  /// case holds one (a `Destination.Action.alert(…)`).
  static func canSend(_ action: Any) -> Bool {
    if type(of: action) == Action.self { return true }
    guard let payload = enumCase(of: action)?.payload else { return false }
    return type(of: payload) == Action.self
  }
}

extension AlertState: _EphemeralState {}
extension ConfirmationDialogState: _EphemeralState {}

/// The ephemeral type of `state`, or of the state its enum case holds (a
/// `Destination.State.alert(…)`), if it is one.
func ephemeralType(of state: Any) -> (any _EphemeralState.Type)? {
  if let type = type(of: state) as? any _EphemeralState.Type { return type }
  guard let payload = enumCase(of: state)?.payload else { return nil }
  return type(of: payload) as? any _EphemeralState.Type
}

/// Whether `state` is ephemeral, or is an enum whose case holds ephemeral state.
func isEphemeral(_ state: Any) -> Bool {
  ephemeralType(of: state) != nil
}

// Equal when they read and act the same: the identity is not compared, as in the Composable
// Architecture.
extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension AlertState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.titleVisibility == rhs.titleVisibility && lhs.title == rhs.title
      && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(titleVisibility)
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension AlertState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [("title", title)]
    if !buttons.isEmpty { children.append(("actions", buttons)) }
    if let message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension ConfirmationDialogState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [
      ("titleVisibility", titleVisibility), ("title", title),
    ]
    if !buttons.isEmpty { children.append(("actions", buttons)) }
    if let message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension ButtonState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if let role { children.append(("role", role)) }
    children.append(("action", action.action as Any))
    children.append(("label", label))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

// An alert is stored as `{"buttons": […], "message": "…", "title": "…"}`, `buttons` and `message`
// left out when it has none; a dialog adds `"titleVisibility"` ("automatic", "hidden",
// "visible"). Their identities are not stored: a decoded alert is a new one, so replaying the
// actions that made it gives an equal state.
private enum PresentedTextKeys: String, CodingKey {
  case buttons, message, title, titleVisibility
}

extension AlertState: Codable where Action: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: PresentedTextKeys.self)
    let title = try container.decode(TextState.self, forKey: .title)
    let buttons =
      try container.decodeIfPresent([ButtonState<Action>].self, forKey: .buttons) ?? []
    self.init(title: { title }, actions: { buttons })
    self.message = try container.decodeIfPresent(TextState.self, forKey: .message)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: PresentedTextKeys.self)
    if !buttons.isEmpty { try container.encode(buttons, forKey: .buttons) }
    try container.encodeIfPresent(message, forKey: .message)
    try container.encode(title, forKey: .title)
  }
}

extension ConfirmationDialogState.Visibility: Codable {
  public init(from decoder: any Decoder) throws {
    let name = try decoder.singleValueContainer().decode(String.self)
    switch name {
    case "automatic": self = .automatic
    case "hidden": self = .hidden
    case "visible": self = .visible
    default:
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "A dialog's title visibility is \"automatic\", \"hidden\" or \"visible\", not \"\(name)\"."
        ))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .automatic: try container.encode("automatic")
    case .hidden: try container.encode("hidden")
    case .visible: try container.encode("visible")
    }
  }
}

extension ConfirmationDialogState: Codable where Action: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: PresentedTextKeys.self)
    let title = try container.decode(TextState.self, forKey: .title)
    let buttons =
      try container.decodeIfPresent([ButtonState<Action>].self, forKey: .buttons) ?? []
    self.init(
      titleVisibility: try container.decode(Visibility.self, forKey: .titleVisibility),
      title: { title }, actions: { buttons })
    self.message = try container.decodeIfPresent(TextState.self, forKey: .message)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: PresentedTextKeys.self)
    if !buttons.isEmpty { try container.encode(buttons, forKey: .buttons) }
    try container.encodeIfPresent(message, forKey: .message)
    try container.encode(title, forKey: .title)
    try container.encode(titleVisibility, forKey: .titleVisibility)
  }
}
