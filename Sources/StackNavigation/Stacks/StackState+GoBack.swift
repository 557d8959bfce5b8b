// TCACoordinators' ways back, on any navigation stack.

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
