/// A screen of a stack together with how it is shown: pushed, presented as a sheet, or as a
/// full-screen cover (optionally with its own navigation, so screens can be pushed from it).
///
/// `Route` is `Codable`, so how each screen was shown is stored and restored with the stack.
///
/// ```swift
/// var routes = StackState<Route<Screen.State>>([.root(.home(.init()))])
/// routes.presentSheet(.numbersList(.init()), withNavigation: true)
/// routes.push(.numberDetail(.init(number: 42)))
/// routes.dismiss()  // back to home
/// ```
public enum Route<Screen> {
  /// The screen pushed onto the current navigation.
  case push(Screen)
  /// The screen presented as a sheet.
  case sheet(Screen, withNavigation: Bool = false)
  /// The screen presented as a full-screen cover.
  case cover(Screen, withNavigation: Bool = false)

  /// The root screen of a stack, shown without presentation.
  public static func root(_ screen: Screen) -> Self { .push(screen) }

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
      case let .sheet(_, navigation): self = .sheet(newValue, withNavigation: navigation)
      case let .cover(_, navigation): self = .cover(newValue, withNavigation: navigation)
      }
    }
  }

  /// Whether the screen is presented (sheet or cover) rather than pushed.
  public var isPresented: Bool {
    if case .push = self { return false }
    return true
  }

  /// Whether screens can be pushed from this screen: a pushed screen, or a presented screen
  /// shown with its own navigation.
  public var canPush: Bool {
    switch self {
    case .push: return true
    case let .sheet(_, navigation), let .cover(_, navigation): return navigation
    }
  }
}

extension Route: Equatable where Screen: Equatable {}
extension Route: Hashable where Screen: Hashable {}
extension Route: Sendable where Screen: Sendable {}
extension Route: Encodable where Screen: Encodable {}
extension Route: Decodable where Screen: Decodable {}

extension StackState {
  /// Pops the top `count` elements (one by default); stops at an empty stack.
  public mutating func goBack(_ count: Int = 1) {
    truncate(to: Swift.max(0, self.count - Swift.max(0, count)))
  }

  /// Pops back to the topmost element that satisfies the predicate, keeping it.
  ///
  /// Returns `false`, changing nothing, when no element satisfies it.
  @discardableResult
  public mutating func goBackTo(where predicate: (Element) throws -> Bool) rethrows -> Bool {
    guard let index = try storedElements.lastIndex(where: predicate) else { return false }
    truncate(to: index + 1)
    return true
  }

  /// Pops back to the element with the given ID, keeping it.
  @discardableResult
  public mutating func goBackTo(id: StackElementID) -> Bool {
    pop(to: id)
  }

  /// Pops back to the topmost element in the given case, keeping it.
  @discardableResult
  public mutating func goBackTo<Case>(
    _ path: CaseKeyPath<Element, Case>
  ) -> Bool where Element: CasePathable {
    goBackTo { $0[case: path] != nil }
  }

  /// Pops every element but the first.
  public mutating func goBackToRoot() {
    truncate(to: Swift.min(1, count))
  }
}

extension StackState {
  /// Pushes a screen.
  public mutating func push<Screen>(_ screen: Screen) where Element == Route<Screen> {
    append(.push(screen))
  }

  /// Presents a screen as a sheet.
  public mutating func presentSheet<Screen>(
    _ screen: Screen,
    withNavigation: Bool = false
  ) where Element == Route<Screen> {
    append(.sheet(screen, withNavigation: withNavigation))
  }

  /// Presents a screen as a full-screen cover.
  public mutating func presentCover<Screen>(
    _ screen: Screen,
    withNavigation: Bool = false
  ) where Element == Route<Screen> {
    append(.cover(screen, withNavigation: withNavigation))
  }

  /// Dismisses the most recent presentation: pops the last sheet or cover and every screen
  /// pushed above it. Returns `false`, changing nothing, when nothing is presented.
  @discardableResult
  public mutating func dismiss<Screen>() -> Bool where Element == Route<Screen> {
    guard let index = storedElements.lastIndex(where: \.isPresented) else { return false }
    truncate(to: index)
    return true
  }
}
