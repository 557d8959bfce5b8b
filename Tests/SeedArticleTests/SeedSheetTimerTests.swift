// The seed's settings sheet (SeedPresentationTests.swift) run by a `Store` and by a
// `RecordingStore` on an SQLite file: its timer runs while it is presented, and when it closes
// itself through `@Dependency(\.dismiss)` the timer stops, so nothing more reaches the store or
// the journal however far the clock goes.
import ConcurrencyExtras
import Foundation
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import Testing

@Suite struct SeedSheetTimerTests {
  /// The sheet's flow: present it, start its timer, let it tick once, close it, then advance the
  /// clock five more seconds. Returns the actions the store saw after the sheet closed.
  static func runTheSheet(
    clock: TestClock<Duration>,
    send: @escaping (CounterStackFeature.Action) async throws -> Void,
    state: @escaping () async -> CounterStackFeature.State,
    seen: LockIsolated<[String]>
  ) async throws -> [String] {
    try await send(.settingsButtonTapped)
    try await send(.destination(.presented(.settings(.onAppear))))
    // The timer's effect may not be sleeping yet when the first second passes: a second at a
    // time until it has ticked.
    #expect(
      await eventually {
        if await state().destination?.settings?.ticks ?? 0 >= 1 { return true }
        await clock.advance(by: .seconds(1))
        return false
      })
    try await send(.destination(.presented(.settings(.closeButtonTapped))))
    #expect(await eventually { await state().destination == nil })
    let closed = seen.value.count
    await clock.advance(by: .seconds(5))
    try await Task.sleep(for: .milliseconds(50))
    return Array(seen.value.dropFirst(closed))
  }

  @Test func aStoresSheetThatClosesItselfStopsItsTimer() async throws {
    let clock = TestClock()
    let seen = LockIsolated<[String]>([])
    let store = Store(initialState: CounterStackFeature.State(path: [.counter(.init(count: 1))])) {
      CounterStackFeature().dependency(\.continuousClock, clock)
    } observer: { transition in
      seen.withValue { $0.append(String(describing: transition.action)) }
    }
    let after = try await Self.runTheSheet(
      clock: clock, send: { try await store.send($0) }, state: { await store.state },
      seen: seen)
    #expect(after == [])
    #expect(await store.state.destination == nil)
    // Nothing runs any more: the timer went with the sheet.
    let finished = LockIsolated(false)
    let waiting = Task {
      await store.waitForEffects()
      finished.setValue(true)
    }
    #expect(await eventually { finished.value })
    waiting.cancel()
  }

  @Test func aRecordedSheetThatClosesItselfJournalsNoMoreTicks() async throws {
    let directory = try TemporaryDirectory()
    let journal = try SQLiteJournal(path: directory.path("sheet.sqlite"))
    let clock = TestClock()
    let seen = LockIsolated<[String]>([])
    let store = try await RecordingStore.open(
      session: "sheet", journal: journal,
      initialState: CounterStackFeature.State(path: [.counter(.init(count: 1))]),
      reducer: { CounterStackFeature().dependency(\.continuousClock, clock) },
      onRecorded: { _, transition in
        seen.withValue { $0.append(String(describing: transition.action)) }
      })
    let after = try await Self.runTheSheet(
      clock: clock, send: { try await store.send($0) }, state: { await store.state },
      seen: seen)
    #expect(after == [])
    let head = await store.sequence
    // Presented, started, its ticks, closed, dismissed itself, and no more.
    let ticks = seen.value.filter { $0.contains("tick") }.count
    #expect(ticks >= 1)
    #expect(head == Int64(4 + ticks))
    var types: [String] = []
    try await journal.entries(session: "sheet", after: 0, through: nil) { entry in
      types.append(entry.type)
      return true
    }
    #expect(types.last == "destination.dismiss")
    // Every moment restores without an incomplete replay.
    let replayer = Replayer(journal: journal) { CounterStackFeature() }
    for sequence in 0...head {
      let restored = try await replayer.restore(session: "sheet", at: .sequence(sequence))
      #expect(restored.skipped.isEmpty, "at \(sequence)")
    }
  }
}
