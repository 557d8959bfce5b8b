import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

/// Given a journal whose actions push IDs popped earlier (explicit `push(id:)` of a lower, unused
/// ID, which the Composable Architecture accepts), when restored at any sequence, expect the live
/// state with the same next IDs.
final class ExplicitPushTests: XCTestCase {
  func testAJournalWithPushesOfIDsPoppedEarlierRestoresExactlyAtEverySequence() async throws {
    for test in try await Backends.all(.init(snapshotInterval: 4)) {
      let live = LiveStates()
      live.set(0, DemoScript.deepLink)  // #0 #1 #2, next #3
      var issues: [String] = []
      let head: Int64
      do {
        let store = try await RecordingStore.open(
          session: "explicit", journal: test.journal, initialState: DemoScript.deepLink,
          reducer: { RootFeature() }, onRecorded: { live.record($0, $1) })
        issues = try await collectIssues {
          try await store.send(.pushCounterTapped(count: 3))  // 1: #3, next #4
          try await store.send(.path(.popFrom(id: 1)))  // 2: [#0]
          try await store.send(.path(.push(id: 2, state: .counter(.init(count: 20)))))  // 3
          try await store.send(
            .path(.push(id: 1, state: .numberFact(.init(number: 5)))))  // 4: [#0 #2 #1]
          try await store.send(.path(.element(id: 2, action: .counter(.decrementButtonTapped))))
          try await store.send(.pushCounterTapped(count: 7))  // 6: #4, never #1, #2 or #3
          try await store.send(.path(.popFrom(id: 2)))  // 7: [#0]
          try await store.send(.path(.push(id: 3, state: .counter(.init(count: 30)))))  // 8
          try await store.send(.path(.push(id: 4, state: .counter(.init(count: 40)))))  // 9
          try await store.send(.pushNumberFactTapped(number: 9))  // 10: #5
        }
        await store.waitForEffects()
        head = store.sequence
      }
      XCTAssertEqual(issues, [], test.name)
      XCTAssertEqual(head, 10, test.name)
      XCTAssertEqual(live[4]?.path.ids, [0, 2, 1], test.name)
      XCTAssertEqual(live[4]?.path.nextID, 4, test.name)
      XCTAssertEqual(live[9]?.path.ids, [0, 3, 4], test.name)
      XCTAssertEqual(live[9]?.path.nextID, 5, test.name)
      XCTAssertEqual(live[10]?.path.ids, [0, 3, 4, 5], test.name)

      let replayer = replayer(test.journal)
      for sequence in 0...head {
        let restored = try await replayer.restore(session: "explicit", at: .sequence(sequence))
        assertRestored(restored.state, equals: live[sequence], "\(test.name) at \(sequence)")
        XCTAssertTrue(restored.isComplete, "\(test.name) at \(sequence)")
        // The stacks the journal records, without the app's types, agree.
        let recorded = try await test.journal.stacks(session: "explicit", at: sequence)
        XCTAssertEqual(recorded.first?.ids, live[sequence]?.path.ids, "\(test.name) at \(sequence)")
        XCTAssertEqual(
          recorded.first?.nextID, live[sequence]?.path.nextID, "\(test.name) at \(sequence)")
      }
      let verifyResult = try await replayer.verify(session: "explicit").isClean
      XCTAssertTrue(verifyResult, test.name)
      if let sqlite = test.journal as? SQLiteJournal {
        let storage = try sqlite.verifyStorage(session: "explicit")
        XCTAssertTrue(storage.isClean, "\(test.name): \(storage.sessions.flatMap(\.problems))")
      }

      // A decoded stack hands out the recorded next ID, not an ID it held before.
      let snapshotResult = try await test.journal.snapshot(session: "explicit", atOrBelow: 9)
      let snapshot = try XCTUnwrap(snapshotResult)
      XCTAssertEqual(snapshot.sequence, 8, test.name)
      var decoded = try JSONDecoder().decode(RootFeature.State.self, from: snapshot.state)
      XCTAssertEqual(decoded.path.ids, [0, 3], test.name)
      XCTAssertEqual(decoded.path.nextID, 5, test.name)
      decoded.path.append(.counter(.init()))
      XCTAssertEqual(decoded.path.ids, [0, 3, 5], test.name)

      // Reopening the session continues where the recording left off.
      let reopened = try await RecordingStore.open(
        session: "explicit", journal: test.journal, initialState: DemoScript.deepLink
      ) {
        RootFeature()
      }
      try await reopened.send(.pushCounterTapped(count: 1))
      let state = await reopened.state
      XCTAssertEqual(state.path.ids, [0, 3, 4, 5, 6], test.name)
      XCTAssertEqual(state.path.nextID, 7, test.name)
    }
  }
}
