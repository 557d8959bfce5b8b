/// Where a reducer runs among stacks: the stack elements and routes, outermost first, whose
/// reducer is running.
///
/// Cancellation IDs are scoped by it, so that an element's effects — and a feature's own
/// `cancellable(id:)` IDs — never reach the same feature's effects in another element, in this
/// stack or in a stack nested in another element.
struct NavigationIDPath: Hashable, Sendable {
  var elements: [AnyHashableSendable] = []

  /// Whether this path is `ancestor` or lies below it.
  func isWithin(_ ancestor: NavigationIDPath) -> Bool {
    elements.count >= ancestor.elements.count
      && elements.prefix(ancestor.elements.count).elementsEqual(ancestor.elements)
  }
}

extension NavigationIDPath: DependencyKey {
  static let liveValue = NavigationIDPath()
  static let testValue = NavigationIDPath()
}

extension DependencyValues {
  var navigationIDPath: NavigationIDPath {
    get { self[NavigationIDPath.self] }
    set { self[NavigationIDPath.self] = newValue }
  }
}

/// A cancellation ID as a feature gave it, scoped to where the feature runs.
struct ScopedCancelID: Hashable, @unchecked Sendable {
  let path: NavigationIDPath
  let id: AnyHashable

  init(_ id: some Hashable & Sendable) {
    self.path = DependencyValues._current.navigationIDPath
    self.id = AnyHashable(id)
  }
}
