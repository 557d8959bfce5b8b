import IdentifiedCollections

// TCACoordinators' conveniences on routes kept in an identified array of identifiable screens.
// Each is a spelling of an operation in `RouteOperations.swift`; presenting or pushing a screen
// whose ID is already in the routes is reported and changes nothing.

extension IdentifiedArray {
  /// Pushes a screen onto the current navigation.
  ///
  /// Reported as an issue when the most recently presented screen is not embedded in a
  /// navigation view (the screen is pushed anyway), and when a screen with the same ID is
  /// already in the routes (nothing is pushed: IDs are unique).
  public mutating func push<Screen: Identifiable>(
    _ screen: Screen,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Element == Route<Screen>, ID == Screen.ID {
    _checkCanPush(fileID: fileID, filePath: filePath, line: line, column: column)
    _appendUnique(.push(screen), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Presents a screen as a sheet; with `embedInNavigationView`, screens can be pushed from it.
  ///
  /// Reported as an issue, presenting nothing, when a screen with the same ID is in the routes.
  public mutating func presentSheet<Screen: Identifiable>(
    _ screen: Screen,
    embedInNavigationView: Bool = false,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Element == Route<Screen>, ID == Screen.ID {
    _appendUnique(
      .sheet(screen, embedInNavigationView: embedInNavigationView),
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Presents a screen as a full-screen cover; with `embedInNavigationView`, screens can be
  /// pushed from it.
  ///
  /// Reported as an issue, presenting nothing, when a screen with the same ID is in the routes.
  public mutating func presentCover<Screen: Identifiable>(
    _ screen: Screen,
    embedInNavigationView: Bool = false,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Element == Route<Screen>, ID == Screen.ID {
    _appendUnique(
      .cover(screen, embedInNavigationView: embedInNavigationView),
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Presents a screen as a sheet; with `withNavigation`, screens can be pushed from it.
  ///
  /// Reported as an issue, presenting nothing, when a screen with the same ID is in the routes.
  public mutating func presentSheet<Screen: Identifiable>(
    _ screen: Screen,
    withNavigation: Bool,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Element == Route<Screen>, ID == Screen.ID {
    presentSheet(
      screen, embedInNavigationView: withNavigation,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Presents a screen as a full-screen cover; with `withNavigation`, screens can be pushed
  /// from it.
  ///
  /// Reported as an issue, presenting nothing, when a screen with the same ID is in the routes.
  public mutating func presentCover<Screen: Identifiable>(
    _ screen: Screen,
    withNavigation: Bool,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Element == Route<Screen>, ID == Screen.ID {
    presentCover(
      screen, embedInNavigationView: withNavigation,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Goes back `count` screens (one by default), pushed or presented; stops at the root.
  public mutating func goBack<Screen: Identifiable>(_ count: Int = 1)
  where Element == Route<Screen>, ID == Screen.ID {
    _keepRoutes(_routeCountAfterGoingBack(count))
  }

  /// Goes back to the topmost screen in the given case, keeping it:
  /// `routes.goBackTo(\.numbersList)`. Returns `false`, changing nothing, when there is none.
  @discardableResult
  public mutating func goBackTo<Screen: Identifiable & CasePathable, Case>(
    _ screenCase: CaseKeyPath<Screen, Case>
  ) -> Bool where Element == Route<Screen>, ID == Screen.ID {
    _goBackTo { $0.screen[case: screenCase] != nil }
  }

  /// Goes back to the topmost screen that satisfies the predicate, keeping it. Returns `false`,
  /// changing nothing, when there is none.
  @discardableResult
  public mutating func goBackTo<Screen: Identifiable>(
    where predicate: (Screen) throws -> Bool
  ) rethrows -> Bool where Element == Route<Screen>, ID == Screen.ID {
    try _goBackTo { try predicate($0.screen) }
  }

  /// Goes back to the screen with the given ID, keeping it. Returns `false`, changing nothing,
  /// when there is none.
  @discardableResult
  public mutating func goBackTo<Screen: Identifiable>(id: ID) -> Bool
  where Element == Route<Screen>, ID == Screen.ID {
    _keepRoutes(ifAny: index(id: id).map { $0 + 1 })
  }

  /// Goes back to the first screen.
  public mutating func goBackToRoot<Screen: Identifiable>()
  where Element == Route<Screen>, ID == Screen.ID {
    _keepRoutes(Swift.min(1, count))
  }

  /// Pops up to `count` pushed screens (one by default); stops at a presented screen and at
  /// the root. Returns `false` when the top screen was not pushed, changing nothing.
  @discardableResult
  public mutating func pop<Screen: Identifiable>(_ count: Int = 1) -> Bool
  where Element == Route<Screen>, ID == Screen.ID {
    _pop(count)
  }

  /// Pops every screen pushed onto the current navigation: back to the most recently presented
  /// screen, or to the root.
  public mutating func popToRoot<Screen: Identifiable>()
  where Element == Route<Screen>, ID == Screen.ID {
    _keepRoutes(_routeCountAfterPoppingToRoot())
  }

  /// Dismisses the most recently presented screen, with the screens pushed from it. Returns
  /// `false`, changing nothing, when no screen is presented above the root.
  @discardableResult
  public mutating func dismiss<Screen: Identifiable>() -> Bool
  where Element == Route<Screen>, ID == Screen.ID {
    _keepRoutes(ifAny: _routeCountAfterDismissing())
  }

  /// Dismisses every presented screen, keeping the root and the screens pushed from it.
  /// Returns `false`, changing nothing, when no screen is presented above the root.
  @discardableResult
  public mutating func dismissAll<Screen: Identifiable>() -> Bool
  where Element == Route<Screen>, ID == Screen.ID {
    _keepRoutes(ifAny: _routeCountAfterDismissingAll())
  }

  mutating func _appendUnique<Screen: Identifiable>(
    _ route: Route<Screen>,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) where Element == Route<Screen>, ID == Screen.ID {
    guard self[id: route.id] == nil else {
      reportFailure(
        """
        A screen with the ID \(String(customDumping: route.id)) is already in the routes; \
        nothing was added. Routes kept in an identified array need screens with unique IDs.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    append(route)
  }
}
