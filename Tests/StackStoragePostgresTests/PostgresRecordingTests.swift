#if PostgreSQL
  // RecordingStores append to PostgreSQL by suspending while the server commits
  // (`appendSuspending`): many stores at once, every session restored at every sequence equals
  // what its store went through; after `close()` an append fails with a one-line error.
  import Foundation
  import StackJournalDemo
  import StackJournalTestSupport
  import StackNavigation
  import StackRestoration
  import StackStorage
  import StackStoragePostgres
  import XCTest

  final class PostgresRecordingTests: PostgresTestCase {
    func testManyStoresAppendAtOnceAndEachSessionRestoresAtEverySequence() async throws {
      let journal = try await PostgresJournal(url: url, options: .init(snapshotInterval: 7))
      defer { journal.close() }
      let stores = 12
      let actions = 25
      let lives = try await withThrowingTaskGroup(
        of: (Int, [Int64: RootFeature.State]).self
      ) { group in
        for index in 0..<stores {
          group.addTask {
            let live = LockIsolated<[Int64: RootFeature.State]>([0: RootFeature.State()])
            let store = try await RecordingStore.open(
              session: SessionID("pg-\(index)"), journal: journal,
              initialState: RootFeature.State(), reducer: { RootFeature() },
              onRecorded: { sequence, transition in
                live.withValue { $0[sequence] = transition.stateAfter }
              })
            var generator = SeededGenerator(seed: UInt64(index + 100))
            for _ in 0..<actions {
              let action = DemoScript.nextAction(
                for: await store.state, using: &generator, allowEffects: false)
              try await store.send(action).finish()
              await store.waitForEffects()
            }
            return (index, live.value)
          }
        }
        var all: [Int: [Int64: RootFeature.State]] = [:]
        for try await (index, live) in group { all[index] = live }
        return all
      }
      let replayer = Replayer<RootFeature.State, RootFeature.Action>(journal: journal) {
        RootFeature()
      }
      for index in 0..<stores {
        let session = SessionID("pg-\(index)")
        let live = try XCTUnwrap(lives[index])
        let head = try await journal.headSequence(session: session)
        XCTAssertEqual(head, Int64(live.count - 1), "\(session)")
        for sequence in 0...head {
          let restored = try await replayer.restore(session: session, at: .sequence(sequence))
          XCTAssertEqual(restored.state, live[sequence], "\(session) at \(sequence)")
        }
        let verifyResult = try await replayer.verify(session: session).isClean
        XCTAssertTrue(verifyResult, "\(session)")
      }
    }

    func testASuspendingAppendAfterCloseFailsInOneLine() async throws {
      let journal = try await PostgresJournal(url: url)
      let store = try await RecordingStore.open(
        session: "closing", journal: journal, initialState: RootFeature.State(),
        reducer: { RootFeature() })
      try await store.send(.pushCounterTapped(count: 1))
      journal.close()
      do {
        try await store.send(.pushCounterTapped(count: 2))
        XCTFail("an append after close() succeeded")
      } catch let error as StorageError {
        XCTAssertFalse(error.message.contains("\n"), error.message)
      }
      let state = await store.state
      XCTAssertEqual(state.path.count, 1, "the rejected action changed nothing")
      let reopened = try await PostgresJournal(url: url)
      defer { reopened.close() }
      let headSequenceResult = try await reopened.headSequence(session: "closing")
      XCTAssertEqual(headSequenceResult, 1)
    }
  }
#endif
