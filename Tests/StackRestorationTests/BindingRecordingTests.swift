// `BindingRecordingXCTests` under Swift Testing: a recorded binding is restored by the replayer,
// one the journal cannot name is refused at record time and leaves the journal as it was.
import Foundation
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import Testing

@Suite struct BindingRecordingTests {
  @Test func aRecordedBindingIsRestored() async throws {
    do {
      let journal = try SQLiteJournal.inMemory()
      let store = try await RecordingStore.open(
        session: "form", journal: journal, initialState: BindingForm.State()
      ) {
        BindingForm()
      }
      try await store.send(.binding(.set(\.title, "Design review"))).finish()
      try await store.send(.binding(.set(\.count, 2))).finish()
      let restored = try await Replayer<BindingForm.State, BindingForm.Action>(journal: journal) {
        BindingForm()
      }.restore(session: "form")
      #expect(restored.sequence == 2)
      #expect(restored.state == BindingForm.State(title: "Design review", count: 2))
      #expect(restored.isComplete)
    }
  }

  @Test func aBindingTheJournalCannotNameIsRefusedAtRecordTime() async throws {
    do {
      let directory = try TemporaryDirectory()
      let journal = try SQLiteJournal(path: directory.path("journal.sqlite"))
      let store = try await RecordingStore.open(
        session: "form", journal: journal, initialState: BindingForm.State()
      ) {
        BindingForm()
      }
      try await store.send(.binding(.set(\.count, 1))).finish()
      let error = await #expect(throws: RestorationError.self) {
        try await store.send(.binding(.set(\.details.title, "Inside")))
      }
      #expect(error?.code == .encodingFailed)
      #expect(error?.message.contains(".details.title") == true, "\(String(describing: error))")
      #expect(try await journal.headSequence(session: "form") == 1)
      #expect(store.sequence == 1)
      #expect(await store.state == BindingForm.State(count: 1))
    }
  }
}
