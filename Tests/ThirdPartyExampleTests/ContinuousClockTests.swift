import StackNavigation
import Testing

// A timer written as TCA's SyncUps writes its meeting timer: `@Dependency(\.continuousClock)`,
// `clock.timer(interval:)`, and a `TestClock` in the test, all from `import StackNavigation`.
@Reducer
private struct Meeting {
  struct State: Equatable {
    var secondsElapsed = 0
  }
  enum Action {
    case onTask
    case timerTick
  }
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onTask:
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(1)) {
            await send(.timerTick)
          }
        }
      case .timerTick:
        state.secondsElapsed += 1
        return .none
      }
    }
  }
}

// Main-actor isolated, as SyncUps' tests are: the store delivers the effect's actions on the main
// actor, and `TestClock.advance` yields to let the effect reach its next sleep, which it does only
// when the test runs there too.
@MainActor
@Suite struct ContinuousClockTests {
  @Test func aTimerOnTheContinuousClockTicksWithATestClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Meeting.State()) {
      Meeting()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = await store.send(.onTask)
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.secondsElapsed = 2 }
    await task.cancel()
  }
}
