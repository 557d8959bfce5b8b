// RecordingStores on one group-commit journal: their appends suspend while a batch is written,
// so stores on few cores share flushes; every session still restores at every sequence to the
// live state. A store whose journal was closed rejects actions with `.closed`.
import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import Testing

@Suite struct GroupCommitRecordingTests {
  @Test func eightStoresShareBatchesAndEachSessionRestoresAtEverySequence() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let journal = try SQLiteJournal(
      path: directory.path("group.sqlite"),
      options: .init(durability: .groupCommit(), snapshotInterval: 7))
    let stores = 8
    let actions = 30
    let lives = try await withThrowingTaskGroup(of: (Int, [Int64: RootFeature.State]).self) { group in
      for index in 0..<stores {
        group.addTask {
          let live = LockIsolated<[Int64: RootFeature.State]>([0: RootFeature.State()])
          let store = try await RecordingStore.open(
            session: SessionID("user-\(index)"), journal: journal,
            initialState: RootFeature.State(), reducer: { RootFeature() },
            onRecorded: { sequence, transition in
              live.withValue { $0[sequence] = transition.stateAfter }
            })
          var generator = SeededGenerator(seed: UInt64(index + 1))
          for _ in 0..<actions {
            let action = DemoScript.nextAction(
              for: await store.state, using: &generator, allowEffects: false)
            try await store.send(action)
          }
          #expect(store.sequence == Int64(live.value.count - 1))
          return (index, live.value)
        }
      }
      var all: [Int: [Int64: RootFeature.State]] = [:]
      for try await (index, live) in group { all[index] = live }
      return all
    }
    let statistics = try #require(journal.groupCommitStatistics)
    #expect(statistics.appends >= stores * actions)
    // The stores' appends waited together: fewer flushes than appends.
    #expect(statistics.largestBatch > 1)
    #expect(statistics.batches < statistics.appends)

    let replayer = Replayer<RootFeature.State, RootFeature.Action>(journal: journal) {
      RootFeature()
    }
    for index in 0..<stores {
      let session = SessionID("user-\(index)")
      let head = try journal.headSequence(session: session)
      let live = try #require(lives[index])
      #expect(head == Int64(live.count - 1))
      for sequence in 0...head {
        let restored = try await replayer.restore(session: session, at: .sequence(sequence))
        #expect(restored.state == live[sequence], "\(session) at \(sequence)")
      }
      await #expect(try replayer.verify(session: session).isClean)
    }
  }

  @Test func aStoreWhoseJournalWasClosedRejectsActionsAndKeepsItsState() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("closed.sqlite")
    let journal = try SQLiteJournal(path: path, options: .init(durability: .groupCommit()))
    let store = try await RecordingStore.open(
      session: "user", journal: journal, initialState: RootFeature.State(),
      reducer: { RootFeature() })
    try await store.send(.pushCounterTapped(count: 1))
    try journal.close()
    let error = await #expect(throws: StorageError.self) {
      try await store.send(.pushCounterTapped(count: 2))
    }
    #expect(error?.code == .closed)
    #expect(await store.state.path.count == 1)
    #expect(store.sequence == 1)
    let reopened = try SQLiteJournal(path: path)
    #expect(try reopened.headSequence(session: "user") == 1)
  }
}
