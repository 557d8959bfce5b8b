import StackNavigation
import StackStorage
import Testing

@testable import StackJournalCLI

/// The stack change `log` prints beside an entry.
struct StackSummaryTests {
  @Test func pushesPopsAndChangesAreListed() {
    let delta = StackDelta(changes: [
      StackChange(
        path: "path", nextID: 4, ids: [0, 3],
        pushed: [StoredElement(id: 3, caseName: "counter", state: "{}")], popped: [1, 2],
        changed: [StoredElement(id: 0, caseName: "counter", state: "{}")])
    ])
    #expect(StackRendering.summary(delta) == "path: +#3 counter -#1 -#2 ~#0")
  }

  /// An element pushed and popped within one action moves the next ID and nothing else: the
  /// line gives what the change sets, and does not call the stack reordered.
  @Test func aChangeListingNoElementGivesItsIDsAndNextID() {
    let delta = StackDelta(changes: [StackChange(path: "path", nextID: 3, ids: [0, 1])])
    #expect(StackRendering.summary(delta) == "path: IDs #0 #1, next ID #3")
  }

  @Test func reorderedRoutesGiveTheirOrder() {
    let delta = StackDelta(changes: [
      StackChange(path: "routes", nextID: .routesNextID, ids: [1, 0])
    ])
    #expect(StackRendering.summary(delta) == "routes: IDs #1 #0")
  }
}
