import Foundation
import StackNavigation
import Testing

// The NavigationStack case study's reducers, driven as its users would test them: nonisolated
// Swift Testing tests (each store is released off the main actor when its test ends), the
// schedulers and the fact client overridden as dependencies.
@Suite struct NavigationStackCaseStudyTests {
  @Test func goingToABCPushesThreeScreensAndScreenBPushesThroughThePath() async {
    let store = await TestStore(initialState: NavigationDemo.State()) { NavigationDemo() }
    await store.send(.goToABCButtonTapped) {
      $0.path[id: 0] = .screenA(ScreenA.State())
      $0.path[id: 1] = .screenB(ScreenB.State())
      $0.path[id: 2] = .screenC(ScreenC.State())
    }
    await store.send(\.path[id: 1].screenB.screenAButtonTapped) {
      $0.path[id: 3] = .screenA(ScreenA.State())
    }
    await store.send(\.path[id: 1].screenB.screenCButtonTapped) {
      $0.path[id: 4] = .screenC(ScreenC.State())
    }
    await store.send(.goBackToScreen(id: 1)) {
      $0.path.pop(from: 2)
    }
    await store.send(\.path.popFrom, 1) {
      $0.path.pop(from: 1)
    }
    await store.send(.popToRoot) {
      $0.path.removeAll()
    }
    await store.send(.goToABCButtonTapped) {
      $0.path[id: 5] = .screenA(ScreenA.State())
      $0.path[id: 6] = .screenB(ScreenB.State())
      $0.path[id: 7] = .screenC(ScreenC.State())
    }
  }

  @Test func screenADismissesItself() async {
    let store = await TestStore(
      initialState: NavigationDemo.State(path: StackState([.screenA(ScreenA.State(count: 2))]))
    ) {
      NavigationDemo()
    }
    await store.send(\.path[id: 0].screenA.incrementButtonTapped) {
      $0.path[id: 0, case: \.screenA]?.count = 3
    }
    await store.send(\.path[id: 0].screenA.dismissButtonTapped)
    await store.receive(\.path.popFrom) {
      $0.path[id: 0] = nil
    }
  }

  @Test func screenAFetchesAFactFromTheFactClient() async {
    let store = await TestStore(
      initialState: NavigationDemo.State(path: StackState([.screenA(ScreenA.State(count: 7))]))
    ) {
      NavigationDemo()
    } withDependencies: {
      $0.factClient.fetch = { "\($0) is a good number." }
    }
    await store.send(\.path[id: 0].screenA.factButtonTapped) {
      $0.path[id: 0, case: \.screenA]?.isLoading = true
    }
    await store.receive(\.path[id: 0].screenA.factResponse.success) {
      $0.path[id: 0, case: \.screenA]?.isLoading = false
      $0.path[id: 0, case: \.screenA]?.fact = "7 is a good number."
    }
  }

  @Test func theFactClientsTestValueIsUnimplemented() async {
    let store = await TestStore(initialState: ScreenA.State()) { ScreenA() }
    await withKnownIssue {
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(\.factResponse.failure) { $0.isLoading = false }
    } matching: { issue in
      issue.description.contains("FactClient.fetch")
    }
  }

  @Test func screenCsTimerStopsAndThenSendsStopOnceMore() async {
    let mainQueue = DispatchQueue.test
    let store = await TestStore(initialState: ScreenC.State()) {
      ScreenC()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(.startButtonTapped) { $0.isTimerRunning = true }
    await mainQueue.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.count = 1 }
    await mainQueue.advance(by: .seconds(2))
    await store.receive(\.timerTick) { $0.count = 2 }
    await store.receive(\.timerTick) { $0.count = 3 }
    await store.send(.stopButtonTapped) { $0.isTimerRunning = false }
    // The timer's effect ended when it was cancelled; the effect concatenated after it runs now.
    await store.receive(\.stopButtonTapped)
    await mainQueue.advance(by: .seconds(5))
  }

  @Test func poppingScreenCCancelsItsTimerAndWhatIsConcatenatedAfterIt() async {
    let mainQueue = DispatchQueue.test
    let store = await TestStore(
      initialState: NavigationDemo.State(path: StackState([.screenC(ScreenC.State())]))
    ) {
      NavigationDemo()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(\.path[id: 0].screenC.startButtonTapped) {
      $0.path[id: 0, case: \.screenC]?.isTimerRunning = true
    }
    await mainQueue.advance(by: .seconds(1))
    await store.receive(\.path[id: 0].screenC.timerTick) {
      $0.path[id: 0, case: \.screenC]?.count = 1
    }
    await store.send(.popToRoot) { $0.path.removeAll() }
    // Neither a tick nor the concatenated stop action arrives: the whole effect went with the
    // screen, and the test store would fail on an effect still running at the end.
    await store.send(.goToABCButtonTapped) {
      $0.path[id: 1] = .screenA(ScreenA.State())
      $0.path[id: 2] = .screenB(ScreenB.State())
      $0.path[id: 3] = .screenC(ScreenC.State())
    }
    await mainQueue.advance(by: .seconds(3))
  }

  @Test func aStoreReleasedOffTheMainActorWithAnEffectRunningFailsTheTest() async {
    let mainQueue = DispatchQueue.test
    await withKnownIssue {
      let store = await TestStore(initialState: ScreenC.State()) {
        ScreenC()
      } withDependencies: {
        $0.mainQueue = mainQueue.eraseToAnyScheduler()
      }
      await store.send(.startButtonTapped) { $0.isTimerRunning = true }
      // The store goes away here, on this test's thread, with the timer still running.
    } matching: { issue in
      issue.description.contains("An effect returned for this action is still running.")
    }
  }
}
