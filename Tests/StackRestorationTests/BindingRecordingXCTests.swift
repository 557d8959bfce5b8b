// Bindings recorded by a RecordingStore: given a journal of a form's bindings, when restored at
// any sequence, expect the live form; a binding the journal cannot name is refused before it is
// journaled.
import Foundation
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

/// `BindingForm` after its `title` was renamed `name`: a journaled binding of `title` no longer
/// decodes.
@Reducer
struct RenamedForm {
  @ObservableState
  struct State: Codable, Equatable, Sendable {
    var name: String?
    var count: Int?
  }

  enum Action: BindableAction, Codable, Equatable, Sendable {
    case binding(BindingAction<State>)
    case clearTapped
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

final class BindingRecordingXCTests: XCTestCase {
  func testRecordedBindingsAreRestoredByTheReplayerAtEverySequence() async throws {
    do {
      for test in try TestJournal.both(snapshotInterval: 3) {
        var live: [Int64: BindingForm.State] = [0: BindingForm.State()]
        let store = try await RecordingStore.open(
          session: "form", journal: test.journal, initialState: BindingForm.State()
        ) {
          BindingForm()
        }
        let script: [BindingForm.Action] = [
          .binding(.set(\.title, "Design review")),
          .binding(.set(\.count, 4)),
          .binding(.set(\.note, "Bring slides")),
          .binding(.set(\.note, nil)),
          .clearTapped,
          .binding(.set(\.title, "Retro")),
        ]
        for action in script {
          try await store.send(action).finish()
          live[store.sequence] = await store.state
        }
        XCTAssertEqual(store.sequence, 6, test.name)

        var payloads: [String] = []
        var types: [String] = []
        try await test.journal.entries(session: "form") { entry in
          payloads.append(String(decoding: entry.payload, as: UTF8.self))
          types.append(entry.type)
          return true
        }
        XCTAssertEqual(
          types, ["binding", "binding", "binding", "binding", "clearTapped", "binding"], test.name)
        XCTAssertEqual(
          payloads.first, #"{"binding":{"_0":{"set":{"field":"title","value":"Design review"}}}}"#,
          test.name)

        let replayer = Replayer<BindingForm.State, BindingForm.Action>(journal: test.journal) {
          BindingForm()
        }
        for sequence in 0...store.sequence {
          let restored = try await replayer.restore(session: "form", at: .sequence(sequence))
          XCTAssertEqual(restored.state, live[sequence], "\(test.name) at \(sequence)")
          XCTAssertTrue(restored.isComplete, "\(test.name) at \(sequence)")
        }
        let verification = try await replayer.verify(session: "form")
        XCTAssertTrue(verification.isClean, test.name)
      }
    }
  }

  func testABindingTheJournalCannotNameIsRefusedAndTheJournalIsUnchanged() async throws {
    do {
      for test in try TestJournal.both() {
        let store = try await RecordingStore.open(
          session: "form", journal: test.journal, initialState: BindingForm.State()
        ) {
          BindingForm()
        }
        try await store.send(.binding(.set(\.title, "Design review"))).finish()
        let before = try await journalEntries(test.journal)

        await XCTAssertThrowsErrorAsync(
          { try await store.send(.binding(.set(\.details.title, "Inside"))) }, test.name
        ) { error in
          guard let error = error as? RestorationError else {
            return XCTFail("unexpected \(error)")
          }
          XCTAssertEqual(error.code, .encodingFailed, test.name)
          XCTAssertTrue(error.message.contains(".details.title"), error.message)
        }

        XCTAssertEqual(store.sequence, 1, test.name)
        let head = try await test.journal.headSequence(session: "form")
        XCTAssertEqual(head, 1, test.name)
        let after = try await journalEntries(test.journal)
        XCTAssertEqual(after, before, test.name)
        let state = await store.state
        XCTAssertEqual(state, BindingForm.State(title: "Design review"), test.name)
        // The store goes on recording what it can name.
        try await store.send(.binding(.set(\.details, BindingForm.State.Details()))).finish()
        XCTAssertEqual(store.sequence, 2, test.name)
      }
    }
  }

  func testABindingOfAFieldTheAppNoLongerHasIsSkippedAndReported() async throws {
    do {
      let journal = try SQLiteJournal.inMemory()
      let store = try await RecordingStore.open(
        session: "form", journal: journal, initialState: BindingForm.State()
      ) {
        BindingForm()
      }
      try await store.send(.binding(.set(\.count, 2))).finish()
      try await store.send(.binding(.set(\.title, "Retro"))).finish()
      try await store.send(.binding(.set(\.count, 3))).finish()

      let restored = try await Replayer<RenamedForm.State, RenamedForm.Action>(
        journal: journal
      ) {
        RenamedForm()
      }.restore(session: "form")
      XCTAssertEqual(restored.state, RenamedForm.State(count: 2))
      XCTAssertEqual(
        restored.skipped.map(\.kind),
        [
          .entry(sequence: 2, type: "binding"), .entry(sequence: 3, type: "binding"),
        ])
      let reason = restored.skipped.first?.reason ?? ""
      XCTAssertTrue(reason.contains("has no field 'title'"), reason)
    }
  }

  /// Each entry's sequence, type and payload.
  private func journalEntries(_ journal: any JournalBackend) async throws -> [String] {
    var entries: [String] = []
    try await journal.entries(session: "form") { entry in
      let payload = String(decoding: entry.payload, as: UTF8.self)
      entries.append("\(entry.sequence) \(entry.type) \(payload)")
      return true
    }
    return entries
  }
}
