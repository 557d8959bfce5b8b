/// A screen of a coordinator's flow together with how it is shown: pushed, presented as a sheet,
/// or presented as a full-screen cover (optionally embedded in its own navigation, so screens can
/// be pushed from it), as TCACoordinators' `Route` is.
///
/// A coordinator holds its whole flow as `[Route<Screen.State>]` (or an identified array of
/// routes) and changes it with the conveniences `push`, `presentSheet`, `goBack`, `dismiss`, …:
///
/// ```swift
/// var routes: [Route<Screen.State>] = [.root(.home(.init()), embedInNavigationView: true)]
/// routes.presentSheet(.numbersList(.init()), embedInNavigationView: true)
/// routes.push(.numberDetail(.init(number: 42)))
/// routes.goBackTo(\.numbersList)
/// ```
///
/// `Route` is `Codable` with one top-level key naming how the screen is shown, e.g.
/// `{"sheet":{"embedInNavigationView":true,"screen":{…}}}`, so a stored route tells its
/// presentation style without the app's code.
public enum Route<Screen> {
  /// The screen pushed onto the current navigation.
  case push(Screen)
  /// The screen presented as a sheet; with `embedInNavigationView`, screens can be pushed from it.
  case sheet(Screen, embedInNavigationView: Bool = false)
  /// The screen presented as a full-screen cover; with `embedInNavigationView`, screens can be
  /// pushed from it.
  case cover(Screen, embedInNavigationView: Bool = false)

  /// The first screen of a flow. How it is shown does not matter, as it is never presented;
  /// with `embedInNavigationView`, screens can be pushed from it.
  public static func root(_ screen: Screen, embedInNavigationView: Bool = false) -> Self {
    .sheet(screen, embedInNavigationView: embedInNavigationView)
  }

  /// The screen.
  public var screen: Screen {
    get {
      switch self {
      case let .push(screen), let .sheet(screen, _), let .cover(screen, _): return screen
      }
    }
    set {
      switch self {
      case .push: self = .push(newValue)
      case let .sheet(_, embed): self = .sheet(newValue, embedInNavigationView: embed)
      case let .cover(_, embed): self = .cover(newValue, embedInNavigationView: embed)
      }
    }
  }

  /// How the screen is shown.
  public var style: RouteStyle {
    switch self {
    case .push: return .push
    case let .sheet(_, embed): return .sheet(embedInNavigationView: embed)
    case let .cover(_, embed): return .cover(embedInNavigationView: embed)
    }
  }

  /// Whether a presented screen is embedded in its own navigation; `false` for a pushed one.
  public var embedInNavigationView: Bool {
    switch self {
    case .push: return false
    case let .sheet(_, embed), let .cover(_, embed): return embed
    }
  }

  /// Whether the screen is presented (sheet or cover) rather than pushed.
  public var isPresented: Bool {
    if case .push = self { return false }
    return true
  }

  /// Whether screens can be pushed from this screen: a pushed screen, or a presented screen
  /// embedded in its own navigation.
  public var canPush: Bool {
    switch self {
    case .push: return true
    case let .sheet(_, embed), let .cover(_, embed): return embed
    }
  }

  /// The same route showing another screen.
  public func map<NewScreen>(_ transform: (Screen) throws -> NewScreen) rethrows
    -> Route<NewScreen>
  {
    switch self {
    case let .push(screen): return .push(try transform(screen))
    case let .sheet(screen, embed):
      return .sheet(try transform(screen), embedInNavigationView: embed)
    case let .cover(screen, embed):
      return .cover(try transform(screen), embedInNavigationView: embed)
    }
  }
}

/// How a ``Route`` shows its screen.
public enum RouteStyle: Hashable, Sendable {
  /// Pushed onto the current navigation.
  case push
  /// Presented as a sheet.
  case sheet(embedInNavigationView: Bool)
  /// Presented as a full-screen cover.
  case cover(embedInNavigationView: Bool)
}

extension Route: Equatable where Screen: Equatable {}
extension Route: Hashable where Screen: Hashable {}
extension Route: Sendable where Screen: Sendable {}

extension Route: Identifiable where Screen: Identifiable {
  /// The screen's ID: routes kept in an `IdentifiedArray` are identified by their screens.
  public var id: Screen.ID { screen.id }
}

// TCACoordinators' and FlowStacks' spelling today, `withNavigation:`, beside the seed's
// `embedInNavigationView:`: both name the same flag, and neither is preferred.
extension Route {
  /// The first screen of a flow; with `withNavigation`, screens can be pushed from it.
  public static func root(_ screen: Screen, withNavigation: Bool) -> Self {
    .root(screen, embedInNavigationView: withNavigation)
  }

  /// A screen presented as a sheet; with `withNavigation`, screens can be pushed from it.
  public static func sheet(_ screen: Screen, withNavigation: Bool) -> Self {
    .sheet(screen, embedInNavigationView: withNavigation)
  }

  /// A screen presented as a full-screen cover; with `withNavigation`, screens can be pushed
  /// from it.
  public static func cover(_ screen: Screen, withNavigation: Bool) -> Self {
    .cover(screen, embedInNavigationView: withNavigation)
  }

  /// Whether a presented screen is embedded in its own navigation: ``embedInNavigationView``.
  public var withNavigation: Bool { embedInNavigationView }
}

extension RouteStyle {
  /// Presented as a sheet; with `withNavigation`, embedded in its own navigation.
  public static func sheet(withNavigation: Bool) -> Self {
    .sheet(embedInNavigationView: withNavigation)
  }

  /// Presented as a full-screen cover; with `withNavigation`, embedded in its own navigation.
  public static func cover(withNavigation: Bool) -> Self {
    .cover(embedInNavigationView: withNavigation)
  }
}
