// The operations behind the route conveniences, on any collection of routes indexed from 0.
//
// Going back never removes the first route (the root): a coordinator always shows a screen.

extension RangeReplaceableCollection where Self: RandomAccessCollection, Index == Int {
  /// Keeps the first `count` routes.
  mutating func _keepRoutes(_ count: Int) {
    guard count < self.count else { return }
    removeSubrange(Swift.max(0, count)..<endIndex)
  }

  /// Keeps the first `count` routes when there is a count; says whether there was.
  mutating func _keepRoutes(ifAny count: Int?) -> Bool {
    guard let count else { return false }
    _keepRoutes(count)
    return true
  }

  mutating func _pop<Screen>(_ pops: Int) -> Bool where Element == Route<Screen> {
    let before = count
    _keepRoutes(_routeCountAfterPopping(pops))
    return pops <= 0 || count < before
  }

  func _routeCountAfterGoingBack<Screen>(_ back: Int) -> Int where Element == Route<Screen> {
    Swift.max(Swift.min(1, count), count - Swift.max(0, back))
  }

  mutating func _goBackTo<Screen>(
    where predicate: (Route<Screen>) throws -> Bool
  ) rethrows -> Bool where Element == Route<Screen> {
    _keepRoutes(ifAny: try lastIndex(where: predicate).map { $0 + 1 })
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
