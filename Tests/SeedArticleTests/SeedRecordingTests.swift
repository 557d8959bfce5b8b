// The article's enum-path app, unchanged, recorded by a RecordingStore and restored at every
// sequence: its synthesized Codable conformances are all the journal needs.
import ConcurrencyExtras
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import Testing

@Suite struct SeedRecordingTests {
  @Test func recordedAndRestoredAtEverySequence() async throws {
    let directory = try TemporaryDirectory()
    let journal = try SQLiteJournal(
      path: directory.path("seed.sqlite"), options: .init(snapshotInterval: 3))
    let live = LockIsolated<[Int64: RootFeature.State]>([:])
    let initial = RootFeature.State(items: [Item(title: "Milk"), Item(title: "Tea")])
    live.withValue { $0[0] = initial }

    let store = try await RecordingStore.open(
      session: "seed-1", journal: journal, initialState: initial,
      reducer: { RootFeature() },
      onRecorded: { sequence, transition in
        live.withValue { $0[sequence] = transition.stateAfter }
      })
    let script: [RootFeature.Action] = [
      .addButtonTapped,
      .path(.element(id: 0, action: .addItem(.titleChanged("Eggs")))),
      .itemTapped(1),
      .path(.element(id: 1, action: .detailItem(.editButtonTapped))),
      .path(.element(id: 2, action: .editItem(.titleChanged("Green tea")))),
      .path(.element(id: 2, action: .editItem(.saveButtonTapped))),
      .itemTapped(0),
      .path(.popFrom(id: 3)),
      .addButtonTapped,
      .path(.element(id: 4, action: .addItem(.quantityChanged(6)))),
    ]
    for action in script {
      try await store.send(action).finish()
    }
    #expect(store.sequence == Int64(script.count))

    let replayer = Replayer(journal: journal) { RootFeature() }
    for sequence in 0...store.sequence {
      let restored = try await replayer.restore(session: "seed-1", at: .sequence(sequence))
      #expect(restored.skipped.isEmpty)
      #expect(restored.state == live.value[sequence], "at sequence \(sequence)")
      #expect(restored.state.path.nextID == live.value[sequence]?.path.nextID)
    }
    let head = try await replayer.restore(session: "seed-1").state
    #expect(head.path.ids == [0, 1, 4])
    #expect(head.path[id: 4]?.addItem?.item.quantity == 6)
  }
}
