// Route conveniences on a navigation stack of routes (`StackState<Route<Screen>>`).

extension StackState {
  /// Pushes a screen.
  public mutating func push<Screen>(_ screen: Screen) where Element == Route<Screen> {
    append(.push(screen))
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
