import StackNavigation
import Testing

/// A `Scope` on a case of its parent's state names that case, by its key path, when a child
/// action arrives while the state is in another case.
@Suite struct ScopeFailureTests {
  @CasePathable
  enum Parent: Equatable {
    case child(Int)
    case other
  }

  @CasePathable
  enum ParentAction {
    case child(ChildAction)
  }

  enum ChildAction { case tapped }

  struct Child: Reducer {
    func reduce(into state: inout Int, action: ChildAction) -> Effect<ChildAction> {
      state += 1
      return .none
    }
  }

  @Test func aChildActionInAnotherCaseIsReportedWithTheCase() {
    var state = Parent.other
    let scope = Scope(state: \Parent.Cases.child, action: \ParentAction.Cases.child) { Child() }
    let expected = "State case expected: \(\Parent.Cases.child)"
    withKnownIssue {
      _ = scope.reduce(into: &state, action: .child(.tapped))
    } matching: { issue in
      issue.description.contains(expected)
    }
    #expect(state == .other)
  }

  @Test func aChildActionInItsCaseRunsTheChild() {
    var state = Parent.child(1)
    let scope = Scope(state: \Parent.Cases.child, action: \ParentAction.Cases.child) { Child() }
    _ = scope.reduce(into: &state, action: .child(.tapped))
    #expect(state == .child(2))
  }
}
