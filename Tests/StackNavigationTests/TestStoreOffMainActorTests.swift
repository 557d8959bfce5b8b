// The test store's TCA API from Swift Testing tests that are not isolated to the main actor
// (Swift Testing's default): stores created with `await TestStore(…)` and released off it.
import Foundation
import StackNavigation
import Testing

@Suite struct TestStoreOffMainActorTests {
  @Reducer
  struct Clock {
    struct State: Equatable { var seconds = 0 }
    enum Action { case read, tick, ticked, leave }
    @Dependency(\.date.now) var now
    @Dependency(\.dismiss) var dismiss
    @Dependency(\.mainQueue) var mainQueue

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .read:
          state.seconds = Int(now.timeIntervalSince1970)
          return .none
        case .tick:
          return .run { send in
            try await mainQueue.sleep(for: .seconds(1))
            await send(.ticked)
          }
        case .ticked:
          state.seconds += 1
          return .none
        case .leave:
          return .run { _ in await dismiss() }
        }
      }
    }
  }

  @Test func dependenciesChangeMidTest() async {
    let store = await TestStore(initialState: Clock.State()) {
      Clock()
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 10)
    }
    await store.send(.read) { $0.seconds = 10 }
    await MainActor.run { store.dependencies.date.now = Date(timeIntervalSince1970: 20) }
    await store.send(.read) { $0.seconds = 20 }
  }

  @Test func skippedEffectsStillDeliver() async {
    let queue = DispatchQueue.test
    let store = await TestStore(initialState: Clock.State()) {
      Clock()
    } withDependencies: {
      $0.mainQueue = queue.eraseToAnyScheduler()
    }
    await store.send(.tick)
    await store.skipInFlightEffects()
    await queue.advance(by: .seconds(1))
    await store.receive { if case .ticked = $0 { true } else { false } } assert: {
      $0.seconds = 1
    }
  }

  @Test func theFeatureDismissesTheStore() async {
    let store = await TestStore(initialState: Clock.State()) { Clock() }
    await store.send(.leave)
    #expect(await store.isDismissed)
  }
}
