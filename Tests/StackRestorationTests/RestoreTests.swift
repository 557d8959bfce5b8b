import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

final class RestoreTests: XCTestCase {
  func testRestoreAtEverySequenceEqualsTheLiveState() async throws {
    for test in try await Backends.all(.init(snapshotInterval: 16)) {
      let live = try await recordScriptedSession("user-1", into: test.journal, count: 200)
      let head = try await test.journal.headSequence(session: "user-1")
      XCTAssertGreaterThanOrEqual(head, 200)
      XCTAssertEqual(live.count, Int(head) + 1)
      let replayer = replayer(test.journal)
      for sequence in 0...head {
        let restored = try await replayer.restore(session: "user-1", at: .sequence(sequence))
        assertRestored(restored.state, equals: live[sequence], "\(test.name) at \(sequence)")
        XCTAssertTrue(restored.isComplete)
        XCTAssertLessThan(restored.replayedCount, 16, "bounded by the snapshot interval")
      }
      let atHead = try await replayer.restore(session: "user-1")
      assertRestored(atHead.state, equals: live[head])
      XCTAssertEqual(atHead.sequence, head)
    }
  }

  func testDeepLinkPushPopAndSelfDismissal() async throws {
    for test in try await Backends.all(.init(snapshotInterval: 16)) {
      let store = try await RecordingStore.open(
        session: "deep-link", journal: test.journal, initialState: DemoScript.deepLink
      ) {
        RootFeature()
      }
      try await store.send(.pushCounterTapped(count: 3))  // 1: #3
      try await store.send(.path(.element(id: 3, action: .counter(.incrementButtonTapped))))  // 2
      try await store.send(.path(.element(id: 3, action: .counter(.incrementButtonTapped))))  // 3, then 4: popFrom
      await store.waitForEffects()
      try await store.send(.path(.popFrom(id: 1)))  // 5
      try await store.send(.pushNumberFactTapped(number: 7))  // 6: #4
      try await store.send(.path(.element(id: 4, action: .numberFact(.factButtonTapped))))  // 7, then 8
      await store.waitForEffects()
      XCTAssertEqual(store.sequence, 8)

      var types: [String] = []
      try await test.journal.entries(session: "deep-link") { types.append($0.type); return true }
      XCTAssertEqual(types, [
        "pushCounterTapped",
        "path.element.counter.incrementButtonTapped",
        "path.element.counter.incrementButtonTapped",
        "path.popFrom",
        "path.popFrom",
        "pushNumberFactTapped",
        "path.element.numberFact.factButtonTapped",
        "path.element.numberFact.factResponse",
      ])

      let replayer = replayer(test.journal)
      func restored(at sequence: Int64) async throws -> RootFeature.State {
        try await replayer.restore(session: "deep-link", at: .sequence(sequence)).state
      }
      var expected = DemoScript.deepLink
      await assertRestored(try restored(at: 0), equals: expected)
      expected.path.append(.counter(.init(count: 3)))
      await assertRestored(try restored(at: 1), equals: expected)
      expected.path[id: 3, case: \.counter]?.count = 5
      await assertRestored(try restored(at: 3), equals: expected)
      expected.path.pop(from: 3)
      await assertRestored(try restored(at: 4), equals: expected)
      expected.path.pop(from: 1)
      await assertRestored(try restored(at: 5), equals: expected)
      // The fact came as an alert, as the seed's number-fact screen shows it: restored too.
      let fact = NumberFactClient.fact(about: 7)
      expected.path.append(
        .numberFact(
          .init(number: 7, fact: fact, isLoading: false, alert: AlertState { TextState(fact) })))
      let atHead = try await replayer.restore(session: "deep-link")
      assertRestored(atHead.state, equals: expected)
      XCTAssertEqual(atHead.state.path.ids, [0, 4])
      XCTAssertEqual(atHead.state.path.nextID, 5)
      let rows = try await test.journal.headStacks(session: "deep-link")
      XCTAssertEqual(rows.first?.elements.map(\.id), [0, 4])
      XCTAssertEqual(rows.first?.elements.map(\.caseName), ["counter", "numberFact"])
    }
  }

  func testAPushAfterRestoringGetsTheIDTheOriginalRunHandedOut() async throws {
    for test in try await Backends.all(.init(snapshotInterval: 16)) {
      let live = try await recordScriptedSession("ids", into: test.journal, count: 200, seed: 11)
      let head = try await test.journal.headSequence(session: "ids")
      let replayer = replayer(test.journal)
      var checked = 0
      for sequence in 0..<head {
        guard let next = live.action(at: sequence + 1) else { continue }
        switch next {
        case .pushCounterTapped, .pushNumberFactTapped: break
        default: continue
        }
        var restored = try await replayer.restore(session: "ids", at: .sequence(sequence)).state
        _ = RootFeature().reduce(into: &restored, action: next)
        XCTAssertEqual(restored.path.ids.last, live[sequence + 1]?.path.ids.last, "after \(sequence)")
        assertRestored(restored, equals: live[sequence + 1])
        checked += 1
      }
      XCTAssertGreaterThan(checked, 10)

      var everyID: Set<StackElementID> = []
      try await test.journal.entries(session: "ids") { entry in
        for change in entry.delta.changes { everyID.formUnion(change.pushed.map(\.id)) }
        return true
      }
      var atHead = try await replayer.restore(session: "ids").state
      atHead.path.append(.counter(.init()))
      XCTAssertGreaterThan(atHead.path.ids.last!, everyID.max()!)
    }
  }

  func testReplayDoesNotRunEffects() async throws {
    let runs = LockIsolated(0)
    let test = try TestJournal.inMemory()
    let store = try await RecordingStore.open(
      session: "effects", journal: test.journal, initialState: DemoScript.deepLink
    ) {
      RootFeature()
        .dependency(\.numberFact, NumberFactClient { number in
          runs.withValue { $0 += 1 }
          return "fact \(number)"
        })
    }
    try await store.send(.pushNumberFactTapped(number: 1))
    try await store.send(.path(.element(id: 3, action: .numberFact(.factButtonTapped)))).finish()
    await store.waitForEffects()
    XCTAssertEqual(runs.value, 1)
    XCTAssertEqual(store.sequence, 3)

    runs.setValue(0)
    let restored = try await Replayer(journal: test.journal) {
      RootFeature()
        .dependency(\.numberFact, NumberFactClient { number in
          runs.withValue { $0 += 1 }
          return "fact \(number)"
        })
    }.restore(session: "effects")
    XCTAssertEqual(runs.value, 0, "replay ran no effect")
    XCTAssertEqual(restored.state.path[id: 3, case: \.numberFact]?.fact, "fact 1")
    XCTAssertEqual(restored.replayedCount, 3)
  }

  func testRestoreAtADate() async throws {
    for test in try await Backends.all(.init(snapshotInterval: 16)) {
      let store = try await RecordingStore.open(
        session: "dates", journal: test.journal, initialState: RootFeature.State()
      ) {
        RootFeature()
      }
      var moments: [Date] = []
      for count in 1...5 {
        try await Task.sleep(for: .milliseconds(15))
        try await store.send(.pushCounterTapped(count: count))
        try await Task.sleep(for: .milliseconds(15))
        moments.append(Date())
      }
      let replayer = replayer(test.journal)
      for (index, moment) in moments.enumerated() {
        let restored = try await replayer.restore(session: "dates", at: .date(moment))
        XCTAssertEqual(restored.sequence, Int64(index + 1))
        XCTAssertEqual(restored.state.path.count, index + 1)
      }
    }
  }

  func testRestoringPastTheHeadIsAClearError() async throws {
    for test in try await Backends.all() {
      _ = try await RecordingStore.open(
        session: "short", journal: test.journal, initialState: RootFeature.State()
      ) {
        RootFeature()
      }
      await XCTAssertThrowsErrorAsync(
        { try await replayer(test.journal).restore(session: "short", at: .sequence(3)) }, test.name
      ) {
        XCTAssertEqual(
          "\($0)", "Session 'short' has sequences 0…0; 3 is not one of them.", test.name)
      }
    }
  }

  func testReopeningASessionRehydratesItsHead() async throws {
    for test in try await Backends.all(.init(snapshotInterval: 16)) where test.canReopen {
      do {
        let store = try await RecordingStore.open(
          session: "reopen", journal: test.journal, initialState: DemoScript.deepLink
        ) {
          RootFeature()
        }
        try await store.send(.path(.popFrom(id: 2)))
        try await store.send(.pushCounterTapped(count: 9))
      }
      let reopened = try await test.reopen()
      let store = try await RecordingStore.open(
        session: "reopen", journal: reopened, initialState: RootFeature.State()
      ) {
        RootFeature()
      }
      XCTAssertEqual(store.sequence, 2)
      var state = await store.state
      XCTAssertEqual(state.path.ids, [0, 1, 3])
      try await store.send(.pushCounterTapped(count: 1))
      state = await store.state
      XCTAssertEqual(state.path.ids, [0, 1, 3, 4])
    }
  }

  func testForkContinuesFromASequenceAndLeavesTheOriginalUntouched() async throws {
    for test in try await Backends.all(.init(snapshotInterval: 16)) {
      let live = try await recordScriptedSession("original", into: test.journal, count: 40)
      let head = try await test.journal.headSequence(session: "original")
      let fork = try await RecordingStore.fork(
        "original", at: .sequence(20), into: "fork", journal: test.journal
      ) {
        RootFeature()
      }
      let forkState = await fork.state
      assertRestored(forkState, equals: live[20])
      try await fork.send(.pushCounterTapped(count: 100))
      XCTAssertEqual(fork.sequence, 1)
      let headSequenceResult1 = try await test.journal.headSequence(session: "original")
      XCTAssertEqual(headSequenceResult1, head)
      let original = try await replayer(test.journal).restore(session: "original").state
      assertRestored(original, equals: live[head])
      let forkInfo = try await test.journal.session("fork")
      let info = try XCTUnwrap(forkInfo)
      XCTAssertEqual(info.forkedFrom, "original")
      XCTAssertEqual(info.forkedAt, 20)
      var restoredFork = try await replayer(test.journal).restore(session: "fork").state
      XCTAssertEqual(restoredFork.path.ids.last, live[20]!.path.nextID)
      restoredFork.path.append(.counter(.init()))
      XCTAssertEqual(
        restoredFork.path.ids.last, StackElementID(generation: live[20]!.path.nextID.generation + 1))
    }
  }

  func testASecondWriterOnTheSameSessionIsRejectedAndChangesNothing() async throws {
    for test in try await Backends.all(.init(snapshotInterval: 16)) where test.canReopen {
      let first = try await RecordingStore.open(
        session: "shared", journal: test.journal, initialState: RootFeature.State()
      ) {
        RootFeature()
      }
      let second = try await RecordingStore.open(
        session: "shared", journal: test.reopen(),
        initialState: RootFeature.State()
      ) {
        RootFeature()
      }
      try await first.send(.pushCounterTapped(count: 1))
      do {
        try await second.send(.pushCounterTapped(count: 2))
        XCTFail("the stale writer must be rejected")
      } catch let error as StorageError {
        XCTAssertEqual(error.code, .sequenceConflict)
      }
      let secondState = await second.state
      XCTAssertEqual(secondState, RootFeature.State(), "the rejected action was not applied")
      let headSequenceResult = try await test.journal.headSequence(session: "shared")
      XCTAssertEqual(headSequenceResult, 1)
      let restoreResult = try await replayer(test.journal).restore(session: "shared").state.path[id: 0]
      XCTAssertEqual(
        restoreResult,
        .counter(.init(count: 1)))
    }
  }
}
