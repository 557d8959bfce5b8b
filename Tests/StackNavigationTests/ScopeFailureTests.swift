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

/// The body `@Reducer` generates for an enum of features scopes each case with closures, and
/// names the case by its case key path when an action arrives for another case.
@Reducer
struct ScopeFailureCounter {
  struct State: Equatable { var count = 0 }
  enum Action { case tapped }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.count += 1
      return .none
    }
  }
}

@Reducer
enum ScopeFailureScreens {
  case counter(ScopeFailureCounter)
  case other(ScopeFailureCounter)
}

extension ScopeFailureScreens.State: Equatable {}

@Suite struct GeneratedCaseScopeFailureTests {
  @Test func anActionForAnotherCaseIsReportedWithTheCase() {
    var state = ScopeFailureScreens.State.other(ScopeFailureCounter.State())
    let expected = "State case expected: \(\ScopeFailureScreens.State.Cases.counter)"
    withKnownIssue {
      _ = ScopeFailureScreens.body.reduce(into: &state, action: .counter(.tapped))
    } matching: { issue in
      issue.description.contains(expected)
    }
    #expect(state == .other(ScopeFailureCounter.State()))
  }

  @Test func anActionForItsCaseRunsTheFeature() {
    var state = ScopeFailureScreens.State.counter(ScopeFailureCounter.State())
    _ = ScopeFailureScreens.body.reduce(into: &state, action: .counter(.tapped))
    _ = ScopeFailureScreens.body.reduce(into: &state, action: .counter(.tapped))
    #expect(state == .counter(ScopeFailureCounter.State(count: 2)))
  }
}
