/// An action of this package whose journal type is known without reflection: ``StackAction`` and
/// ``RouterAction`` name their case and hand over the associated values a journal type may
/// descend into, so recording an action nested in them reflects only the user's own enums.
package protocol JournalNamedAction {
  /// The case's name, as reflection reads it.
  var journalCaseName: String { get }

  /// The associated values of the case, in declaration order, leaving out those that can never
  /// be an enum (a ``StackElementID``, an array of routes).
  var journalCaseValues: [Any] { get }
}

extension StackAction: JournalNamedAction {
  package var journalCaseName: String {
    switch self {
    case .element: "element"
    case .popFrom: "popFrom"
    case .push: "push"
    }
  }

  package var journalCaseValues: [Any] {
    switch self {
    case let .element(_, action): [action]
    case .popFrom: []
    case let .push(_, state): [state]
    }
  }
}

extension RouterAction: JournalNamedAction {
  package var journalCaseName: String {
    switch self {
    case .routeAction: "routeAction"
    case .updateRoutes: "updateRoutes"
    }
  }

  package var journalCaseValues: [Any] {
    switch self {
    case let .routeAction(id, action): [id, action]
    case .updateRoutes: []
    }
  }
}
