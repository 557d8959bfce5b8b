import IdentifiedCollections

// The conveniences of TCACoordinators on a coordinator's routes, for `[Route<Screen>]` and for
// an identified array of routes. Each public method below is a thin spelling of one of the
// operations at the end of this file, which work on any collection of routes.
//
// Going back never removes the first route (the root): a coordinator always shows a screen.

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

  /// Presents a screen as a sheet; with `embedInNavigationView`, screens can be pushed from it.
  public mutating func presentSheet<Screen>(
    _ screen: Screen,
    embedInNavigationView: Bool = false
  ) where Element == Route<Screen> {
    append(.sheet(screen, embedInNavigationView: embedInNavigationView))
  }

  /// Presents a screen as a full-screen cover; with `embedInNavigationView`, screens can be
  /// pushed from it.
  public mutating func presentCover<Screen>(
    _ screen: Screen,
    embedInNavigationView: Bool = false
  ) where Element == Route<Screen> {
    append(.cover(screen, embedInNavigationView: embedInNavigationView))
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
    guard indices.contains(index) else { return false }
    _keepRoutes(index + 1)
    return true
  }

  /// Goes back to the first screen.
  public mutating func goBackToRoot<Screen>() where Element == Route<Screen> {
    _keepRoutes(Swift.min(1, count))
  }

  /// Pops up to `count` pushed screens (one by default); stops at a presented screen and at
  /// the root. Returns `false` when the top screen was not pushed, changing nothing.
  @discardableResult
  public mutating func pop<Screen>(_ count: Int = 1) -> Bool where Element == Route<Screen> {
    let before = self.count
    _keepRoutes(_routeCountAfterPopping(count))
    return count <= 0 || self.count < before
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
    guard let keep = _routeCountAfterDismissing() else { return false }
    _keepRoutes(keep)
    return true
  }

  /// Dismisses every presented screen, keeping the root and the screens pushed from it.
  /// Returns `false`, changing nothing, when no screen is presented above the root.
  @discardableResult
  public mutating func dismissAll<Screen>() -> Bool where Element == Route<Screen> {
    guard let keep = _routeCountAfterDismissingAll() else { return false }
    _keepRoutes(keep)
    return true
  }
}

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
    guard let index = index(id: id) else { return false }
    _keepRoutes(index + 1)
    return true
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
    let before = self.count
    _keepRoutes(_routeCountAfterPopping(count))
    return count <= 0 || self.count < before
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
    guard let keep = _routeCountAfterDismissing() else { return false }
    _keepRoutes(keep)
    return true
  }

  /// Dismisses every presented screen, keeping the root and the screens pushed from it.
  /// Returns `false`, changing nothing, when no screen is presented above the root.
  @discardableResult
  public mutating func dismissAll<Screen: Identifiable>() -> Bool
  where Element == Route<Screen>, ID == Screen.ID {
    guard let keep = _routeCountAfterDismissingAll() else { return false }
    _keepRoutes(keep)
    return true
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

// MARK: - The operations, on any collection of routes

extension RangeReplaceableCollection where Self: RandomAccessCollection, Index == Int {
  /// Keeps the first `count` routes.
  mutating func _keepRoutes(_ count: Int) {
    guard count < self.count else { return }
    removeSubrange(Swift.max(0, count)..<endIndex)
  }

  func _routeCountAfterGoingBack<Screen>(_ back: Int) -> Int where Element == Route<Screen> {
    Swift.max(Swift.min(1, count), count - Swift.max(0, back))
  }

  mutating func _goBackTo<Screen>(
    where predicate: (Route<Screen>) throws -> Bool
  ) rethrows -> Bool where Element == Route<Screen> {
    guard let index = try lastIndex(where: predicate) else { return false }
    _keepRoutes(index + 1)
    return true
  }

  func _routeCountAfterPopping<Screen>(_ pops: Int) -> Int where Element == Route<Screen> {
    var keep = count
    while keep > 1, count - keep < pops, case .push = self[keep - 1] {
      keep -= 1
    }
    return keep
  }

  func _routeCountAfterPoppingToRoot<Screen>() -> Int where Element == Route<Screen> {
    guard let base = indices.dropFirst().last(where: { self[$0].isPresented }) else {
      return Swift.min(1, count)
    }
    return base + 1
  }

  func _routeCountAfterDismissing<Screen>() -> Int? where Element == Route<Screen> {
    indices.dropFirst().last { self[$0].isPresented }
  }

  func _routeCountAfterDismissingAll<Screen>() -> Int? where Element == Route<Screen> {
    indices.dropFirst().first { self[$0].isPresented }
  }

  /// Reports a push onto a presented screen that is not embedded in a navigation view. A root
  /// without navigation is not reported: a parent coordinator may have pushed this flow.
  func _checkCanPush<Screen>(
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) where Element == Route<Screen> {
    for index in indices.reversed() {
      let route = self[index]
      guard route.isPresented else { continue }
      if index > 0, !route.embedInNavigationView {
        reportFailure(
          """
          A screen was pushed onto a presented screen that is not embedded in a navigation \
          view, so nothing could be pushed from it. Present the screen with \
          "embedInNavigationView: true".
          """,
          fileID: fileID, filePath: filePath, line: line, column: column)
      }
      return
    }
  }
}

// MARK: - A navigation stack of routes

extension StackState {
  /// Pushes a screen.
  public mutating func push<Screen>(_ screen: Screen) where Element == Route<Screen> {
    append(.push(screen))
  }

  /// Presents a screen as a sheet; with `embedInNavigationView`, screens can be pushed from it.
  public mutating func presentSheet<Screen>(
    _ screen: Screen,
    embedInNavigationView: Bool = false
  ) where Element == Route<Screen> {
    append(.sheet(screen, embedInNavigationView: embedInNavigationView))
  }

  /// Presents a screen as a full-screen cover; with `embedInNavigationView`, screens can be
  /// pushed from it.
  public mutating func presentCover<Screen>(
    _ screen: Screen,
    embedInNavigationView: Bool = false
  ) where Element == Route<Screen> {
    append(.cover(screen, embedInNavigationView: embedInNavigationView))
  }

  /// Presents a screen as a sheet.
  @available(*, deprecated, renamed: "presentSheet(_:embedInNavigationView:)")
  public mutating func presentSheet<Screen>(
    _ screen: Screen,
    withNavigation: Bool
  ) where Element == Route<Screen> {
    presentSheet(screen, embedInNavigationView: withNavigation)
  }

  /// Presents a screen as a full-screen cover.
  @available(*, deprecated, renamed: "presentCover(_:embedInNavigationView:)")
  public mutating func presentCover<Screen>(
    _ screen: Screen,
    withNavigation: Bool
  ) where Element == Route<Screen> {
    presentCover(screen, embedInNavigationView: withNavigation)
  }

  /// Dismisses the most recent presentation: pops the last sheet or cover above the root and
  /// every screen pushed above it. Returns `false`, changing nothing, when nothing is presented.
  @discardableResult
  public mutating func dismiss<Screen>() -> Bool where Element == Route<Screen> {
    guard
      let index = storedElements.indices.dropFirst().last(where: {
        storedElements[$0].isPresented
      })
    else { return false }
    truncate(to: index)
    return true
  }
}
