// TCACoordinators' conveniences on a coordinator's routes kept in an array, `[Route<Screen>]`.
// Each is a spelling of an operation in `RouteOperations.swift`.

extension Array {
  /// Pushes a screen onto the current navigation.
  ///
  /// Reported as an issue (and pushed anyway) when the most recently presented screen is not
  /// embedded in a navigation view, so nothing could be pushed from it.
  public mutating func push<Screen>(
    _ screen: Screen,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Element == Route<Screen> {
    _checkCanPush(fileID: fileID, filePath: filePath, line: line, column: column)
    append(.push(screen))
  }

  /// Goes back `count` screens (one by default), pushed or presented; stops at the root.
  public mutating func goBack<Screen>(_ count: Int = 1) where Element == Route<Screen> {
    _keepRoutes(_routeCountAfterGoingBack(count))
  }

  /// Goes back to the topmost screen in the given case, keeping it:
  /// `routes.goBackTo(\.numbersList)`. Returns `false`, changing nothing, when there is none.
  @discardableResult
  public mutating func goBackTo<Screen: CasePathable, Case>(
    _ screenCase: CaseKeyPath<Screen, Case>
  ) -> Bool where Element == Route<Screen> {
    _goBackTo { $0.screen[case: screenCase] != nil }
  }

  /// Goes back to the topmost screen that satisfies the predicate, keeping it. Returns `false`,
  /// changing nothing, when there is none.
  @discardableResult
  public mutating func goBackTo<Screen>(
    where predicate: (Screen) throws -> Bool
  ) rethrows -> Bool where Element == Route<Screen> {
    try _goBackTo { try predicate($0.screen) }
  }

  /// Goes back to the screen at the given index, keeping it. Returns `false`, changing nothing,
  /// when there is no such index.
  @discardableResult
  public mutating func goBackTo<Screen>(index: Int) -> Bool where Element == Route<Screen> {
    _keepRoutes(ifAny: indices.contains(index) ? index + 1 : nil)
  }

  /// Goes back to the first screen.
  public mutating func goBackToRoot<Screen>() where Element == Route<Screen> {
    _keepRoutes(Swift.min(1, count))
  }

  /// Pops up to `count` pushed screens (one by default); stops at a presented screen and at
  /// the root. Returns `false` when the top screen was not pushed, changing nothing.
  @discardableResult
  public mutating func pop<Screen>(_ count: Int = 1) -> Bool where Element == Route<Screen> {
    _pop(count)
  }

  /// Pops every screen pushed onto the current navigation: back to the most recently presented
  /// screen, or to the root.
  public mutating func popToRoot<Screen>() where Element == Route<Screen> {
    _keepRoutes(_routeCountAfterPoppingToRoot())
  }

  /// Dismisses the most recently presented screen, with the screens pushed from it. Returns
  /// `false`, changing nothing, when no screen is presented above the root.
  @discardableResult
  public mutating func dismiss<Screen>() -> Bool where Element == Route<Screen> {
    _keepRoutes(ifAny: _routeCountAfterDismissing())
  }

  /// Dismisses every presented screen, keeping the root and the screens pushed from it.
  /// Returns `false`, changing nothing, when no screen is presented above the root.
  @discardableResult
  public mutating func dismissAll<Screen>() -> Bool where Element == Route<Screen> {
    _keepRoutes(ifAny: _routeCountAfterDismissingAll())
  }
}
