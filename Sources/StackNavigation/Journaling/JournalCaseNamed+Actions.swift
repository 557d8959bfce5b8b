// The package's own actions name their cases for a journal's action type, as the `@Reducer`
// macro makes a user's enums do: recording an action nested in them reflects nothing of them.
// Their IDs and route arrays can never be enums, so only the values a name may descend into are
// handed on.

extension StackAction: _JournalCaseNamed {
  public func _appendJournalCaseName(to name: inout _JournalCaseName) {
    switch self {
    case let .element(_, action): name._case("element", enumOrNot: action)
    case .popFrom: name._case("popFrom")
    case let .push(_, state): name._case("push", enumOrNot: state)
    }
  }
}

extension RouterAction: _JournalCaseNamed {
  public func _appendJournalCaseName(to name: inout _JournalCaseName) {
    switch self {
    case let .routeAction(id, action): name._case("routeAction", lastEnumOf: id, action)
    case .updateRoutes: name._case("updateRoutes")
    }
  }
}
