// A pushed screen's effects end with it on a `Store`, by whatever route it goes — it dismisses
// itself through `@Dependency(\.dismiss)`, or the element under it is popped — as SyncUps'
// meeting screen relies on; and work an effect runs under `withTaskCancellation(id:)` is
// cancelled by the reducer's `.cancel(id:)` and by a later call with `cancelInFlight`.
import ConcurrencyExtras
import Foundation
import StackJournalTestSupport
import StackNavigation
import Testing

@Reducer
private struct Meeting {
  @ObservableState
  struct State: Equatable {
    var ticks = 0
  }
  enum Action: Equatable {
    case onAppear
    case tick
    case endTapped
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .tick:
        state.ticks += 1
        return .none
      case .endTapped:
        return .run { _ in await dismiss() }
      }
    }
  }
}

@Reducer
private struct Meetings {
  @ObservableState
  struct State: Equatable {
    var path = StackState<Path.State>()
  }
  enum Action: Equatable {
    case path(StackActionOf<Path>)
  }

  @Reducer(state: .equatable, action: .equatable)
  enum Path {
    case meeting(Meeting)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.path, action: \.path)
  }
}

@Suite struct ChildEffectLifetimeTests {
  /// Pushes two meetings, starts the top one's timer and lets it tick; then `end` removes it.
  /// Returns the actions the store saw after the top meeting was gone.
  private static func run(
    end: (Store<Meetings.State, Meetings.Action>) async throws -> Void
  ) async throws -> (after: [String], store: Store<Meetings.State, Meetings.Action>) {
    let clock = TestClock()
    let seen = LockIsolated<[String]>([])
    let store = Store(initialState: Meetings.State()) {
      Meetings().dependency(\.continuousClock, clock)
    } observer: { transition in
      seen.withValue { $0.append(String(describing: transition.action)) }
    }
    try await store.send(.path(.push(id: 0, state: .meeting(Meeting.State()))))
    try await store.send(.path(.push(id: 1, state: .meeting(Meeting.State()))))
    try await store.send(.path(.element(id: 1, action: .meeting(.onAppear))))
    #expect(
      await eventually {
        if await store.state.path[id: 1]?.meeting?.ticks ?? 0 >= 1 { return true }
        await clock.advance(by: .seconds(1))
        return false
      })
    try await end(store)
    #expect(await eventually { await store.state.path[id: 1] == nil })
    let gone = seen.value.count
    await clock.advance(by: .seconds(5))
    try await Task.sleep(for: .milliseconds(50))
    return (Array(seen.value.dropFirst(gone)), store)
  }

  @Test func aPushedScreenThatDismissesItselfStopsItsTimer() async throws {
    let (after, store) = try await Self.run { store in
      try await store.send(.path(.element(id: 1, action: .meeting(.endTapped))))
    }
    #expect(after == [])
    #expect(await store.state.path.ids == [StackElementID(generation: 0)])
    await store.waitForEffects()
  }

  @Test func poppingTheScreenUnderItStopsItsTimer() async throws {
    let (after, store) = try await Self.run { store in
      try await store.send(.path(.popFrom(id: 0)))
    }
    #expect(after == [])
    #expect(await store.state.path.isEmpty)
    await store.waitForEffects()
  }

  @Test func cancelByIDReachesWorkUnderWithTaskCancellation() async throws {
    enum CancelID { case save }
    let started = LockIsolated(0)
    let finished = LockIsolated(0)
    let cancelled = LockIsolated(0)
    let clock = TestClock()
    let store = Store(initialState: 0) {
      Reduce<Int, String> { state, action in
        switch action {
        case "save":
          state += 1
          return .run { _ in
            do {
              try await withTaskCancellation(id: CancelID.save, cancelInFlight: true) {
                started.withValue { $0 += 1 }
                try await clock.sleep(for: .seconds(1))
                finished.withValue { $0 += 1 }
              }
            } catch is CancellationError {
              cancelled.withValue { $0 += 1 }
            }
          }
        case "stop":
          return .cancel(id: CancelID.save)
        default:
          return .none
        }
      }
    }
    // A second save while the first sleeps cancels the first: the debounce TCA apps write.
    try await store.send("save")
    #expect(await eventually { started.value == 1 })
    try await store.send("save")
    #expect(await eventually { cancelled.value == 1 && started.value == 2 })
    await clock.advance(by: .seconds(1))
    #expect(await eventually { finished.value == 1 })
    // The reducer's `.cancel(id:)` cancels the work an effect runs under that ID.
    try await store.send("save")
    #expect(await eventually { started.value == 3 })
    try await store.send("stop")
    #expect(await eventually { cancelled.value == 2 })
    await clock.advance(by: .seconds(5))
    try await Task.sleep(for: .milliseconds(20))
    #expect(finished.value == 1)
    await store.waitForEffects()
  }
}
