// A store whose observer suspends (as a recording store's does while its journal commits) still
// processes actions one at a time, in order: no action runs while another one's observer waits.
import ConcurrencyExtras
import StackJournalDemo
import StackNavigation
import Testing

@Suite struct SuspendingObserverTests {
  /// What the observer saw, and how many transitions it was in at once.
  final class Log: Sendable {
    let transitions = LockIsolated<[StoreTransition<RootFeature.State, RootFeature.Action>]>([])
    let inside = LockIsolated(0)
    let mostInside = LockIsolated(0)

    func observe(_ transition: StoreTransition<RootFeature.State, RootFeature.Action>) async {
      inside.withValue { $0 += 1 }
      mostInside.withValue { [now = inside.value] in $0 = max($0, now) }
      // Suspends, as an append waiting for its batch does, giving other tasks the thread.
      for _ in 0..<3 { await Task.yield() }
      try? await Task.sleep(for: .milliseconds(1))
      transitions.withValue { $0.append(transition) }
      inside.withValue { $0 -= 1 }
    }
  }

  @Test func concurrentSendsAreSeenOneAtATimeEachFromThePreviousState() async throws {
    let log = Log()
    let store = Store(
      initialState: RootFeature.State(),
      reducer: { RootFeature() },
      observer: { await log.observe($0) })
    await withThrowingTaskGroup(of: Void.self) { group in
      for count in 0..<40 {
        group.addTask { try await store.send(.pushCounterTapped(count: count)) }
      }
    }
    let seen = log.transitions.value
    #expect(log.mostInside.value == 1)
    #expect(seen.count == 40)
    // Each action started from the state the previous one left: none was lost or interleaved.
    for (previous, next) in zip(seen, seen.dropFirst()) {
      #expect(next.stateBefore == previous.stateAfter)
    }
    let state = await store.state
    #expect(state.path.count == 40)
    #expect(state == seen.last?.stateAfter)
  }

  @Test func anEffectsActionWaitsForTheActionBeingObserved() async throws {
    let log = Log()
    let store = Store(
      initialState: RootFeature.State(path: [.counter(.init(count: 4))]),
      reducer: { RootFeature() },
      observer: { await log.observe($0) })
    // Incrementing the counter to 5 makes its effect send `popFrom` through the store.
    async let increment: Void = {
      _ = try await store.send(.path(.element(id: 0, action: .counter(.incrementButtonTapped))))
    }()
    async let push: Void = { _ = try await store.send(.pushCounterTapped(count: 1)) }()
    _ = try await (increment, push)
    await store.waitForEffects()
    let seen = log.transitions.value
    #expect(log.mostInside.value == 1)
    #expect(seen.count == 3)
    for (previous, next) in zip(seen, seen.dropFirst()) {
      #expect(next.stateBefore == previous.stateAfter)
    }
    // The pop the effect sent and the push were seen one after the other, in either order.
    #expect(seen.map(\.action).contains(.path(.popFrom(id: 0))))
    let state = await store.state
    #expect(state == seen.last?.stateAfter)
  }

  @Test func aScopedStoreChecksItsElementOnceItIsItsTurn() async throws {
    let popping = LockIsolated(false)
    let release = LockIsolated(false)
    let store = Store(
      initialState: RootFeature.State(path: [.counter(.init(count: 0))]),
      reducer: { RootFeature() },
      observer: { transition in
        // The pop's observer holds the turn until the test releases it.
        if transition.stateAfter.path.isEmpty {
          popping.setValue(true)
          while !release.value { try? await Task.sleep(for: .milliseconds(1)) }
        }
      })
    let counter = store.scope(
      \.path, action: \.path, id: 0, state: \.counter, action: \.counter)
    async let pop: Void = { _ = try await store.send(.path(.popFrom(id: 0))) }()
    while !popping.value { try await Task.sleep(for: .milliseconds(1)) }
    // The element is still in the state the store holds, but its pop is under way.
    #expect(await store.state.path.ids == [0])
    let scopedSend = Task { try await counter.send(.incrementButtonTapped) }
    try await Task.sleep(for: .milliseconds(20))
    release.setValue(true)
    await #expect(throws: ScopedStoreError.self) { try await scopedSend.value }
    try await pop
    #expect(await store.state.path.isEmpty)
  }
}
