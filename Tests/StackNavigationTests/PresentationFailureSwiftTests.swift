// Presentation's misuse fails a Swift Testing test (TCA's own tests check the same under XCTest,
// in Tests/ComposableArchitectureTests): `withKnownIssue` passes only when it was recorded.
import StackNavigation
import Testing

@MainActor
@Suite struct PresentationFailureSwiftTests {
  struct Parent: Reducer {
    struct State: Equatable {
      var child: Int?
      @PresentationState var sheet: Sheet?
    }
    @CasePathable
    enum Action: Equatable {
      case child(Int)
      case sheet(PresentationAction<Int>)
    }
    @CasePathable
    enum Sheet: Equatable {
      case count(Int)
      case text(String)
    }
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifLet(\.child, action: \.child) { EmptyReducer() }
    }
  }

  @Test func aChildActionWhileTheChildIsNilFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: Parent.State()) { Parent() }
      await store.send(.child(1))
    } matching: {
      $0.description.contains("received a child action when child state was \"nil\"")
    }
  }

  @Test func modifyingAnUnrelatedPresentedCaseFailsAndChangesNothing() {
    var state = Parent.State(sheet: .count(1))
    withKnownIssue {
      state.$sheet[case: \.text]?.append("!")
    } matching: {
      $0.description.contains(#"Can't modify unrelated case "count""#)
    }
    #expect(state.sheet == .count(1))
  }
}
