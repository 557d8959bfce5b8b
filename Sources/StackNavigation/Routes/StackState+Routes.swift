// Route conveniences on a navigation stack of routes (`StackState<Route<Screen>>`).

extension StackState {
  /// Pushes a screen.
  public mutating func push<Screen>(_ screen: Screen) where Element == Route<Screen> {
    append(.push(screen))
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
