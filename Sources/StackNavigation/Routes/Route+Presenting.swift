// Presenting a screen, on any collection of routes indexed from 0: a coordinator's routes kept
// in an array (`[Route<Screen>]`) or in a navigation stack (`StackState<Route<Screen>>`).

extension RangeReplaceableCollection where Self: RandomAccessCollection, Index == Int {
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

  /// Presents a screen as a sheet; with `withNavigation`, screens can be pushed from it.
  public mutating func presentSheet<Screen>(
    _ screen: Screen,
    withNavigation: Bool
  ) where Element == Route<Screen> {
    presentSheet(screen, embedInNavigationView: withNavigation)
  }

  /// Presents a screen as a full-screen cover; with `withNavigation`, screens can be pushed
  /// from it.
  public mutating func presentCover<Screen>(
    _ screen: Screen,
    withNavigation: Bool
  ) where Element == Route<Screen> {
    presentCover(screen, embedInNavigationView: withNavigation)
  }
}
