// SyncUps made durable as its developer would: its states and actions are `Codable` (the only
// change to the app), its root runs as a `RecordingStore` on an SQLite file, on the production
// `uuid` and `date`. Only the outside world is scripted: the clock the meeting's timer runs on,
// the speech recognizer's answers, the disk the app saves to. A session through every screen
// restores at every sequence to the state the user had, reopens where it stopped with the IDs
// the user saw, verifies, and `stackjournal show --at N` names its screens at every N.
import ConcurrencyExtras
import Foundation
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import Testing

@testable import SyncUps

@Suite(.serialized) struct DurableSyncUpsTests {
  /// The outside world of one run: a test clock, a speech recognizer the test answers for, a disk
  /// in memory.
  final class World: Sendable {
    let clock = TestClock()
    let speech = LockIsolated<AsyncThrowingStream<SpeechRecognitionResult, any Error>.Continuation?>(nil)
    let disk = DataManager.mock()

    func apply(_ values: inout DependencyValues) {
      values.uuid = UUIDGenerator { UUID() }
      values.date = DateGenerator { Date() }
      values.continuousClock = clock
      values.dataManager = disk
      values.speechClient.authorizationStatus = { .authorized }
      values.speechClient.requestAuthorization = { .authorized }
      values.speechClient.startTask = { @Sendable [speech] _ in
        AsyncThrowingStream { continuation in speech.setValue(continuation) }
      }
      values.openSettings = {}
    }

    func say(_ text: String) {
      speech.value?.yield(
        SpeechRecognitionResult(
          bestTranscription: Transcription(formattedString: text), isFinal: false))
    }
  }

  typealias Store = RecordingStore<AppFeature.State, AppFeature.Action>

  /// The states the store went through, by sequence, as it recorded them.
  final class Live: Sendable {
    let states = LockIsolated<[Int64: AppFeature.State]>([:])
    let types = LockIsolated<[Int64: String]>([:])
  }

  static func open(
    _ journal: any JournalBackend, world: World, live: Live
  ) async throws -> Store {
    try await withDependencies {
      world.apply(&$0)
    } operation: {
      try await RecordingStore.open(
        session: "syncups", journal: journal, initialState: AppFeature.State(),
        reducer: { AppFeature() },
        onRecorded: { sequence, transition in
          live.states.withValue { $0[sequence] = transition.stateAfter }
          live.types.withValue { $0[sequence] = String(describing: transition.action) }
        })
    }
  }

  /// Every screen: the list's add sheet with bindings, a pushed detail and its edit sheet, a
  /// meeting with timer ticks and speech, its end-meeting alert and save, a past meeting pushed
  /// as a state-only case, the delete alert.
  static func session(_ store: Store, world: World) async throws {
    // The add sheet: a new sync-up and its first attendee draw their IDs from `\.uuid`.
    try await store.send(.syncUpsList(.addSyncUpButtonTapped))
    var draft = try #require(await store.state.syncUpsList.destination?.add?.syncUp)
    draft.title = "Engineering"
    draft.duration = .seconds(6)
    draft.attendees[0].name = "Blob"
    try await store.send(.syncUpsList(.destination(.presented(.add(.binding(.set(\.syncUp, draft)))))))
    try await store.send(.syncUpsList(.destination(.presented(.add(.addAttendeeButtonTapped)))))
    draft = try #require(await store.state.syncUpsList.destination?.add?.syncUp)
    draft.attendees[1].name = "Blob Jr"
    try await store.send(.syncUpsList(.destination(.presented(.add(.binding(.set(\.syncUp, draft)))))))
    try await store.send(.syncUpsList(.confirmAddSyncUpButtonTapped))
    let syncUp = try #require(await store.state.syncUpsList.syncUps.first)

    // The detail, pushed as the list's navigation link pushes it, and its edit sheet.
    try await store.send(.path(.push(id: 0, state: .detail(SyncUpDetail.State(syncUp: syncUp)))))
    try await store.send(.path(.element(id: 0, action: .detail(.editButtonTapped))))
    var edited = try #require(await store.state.path[id: 0]?.detail?.destination?.edit?.syncUp)
    edited.title = "Engineering daily"
    try await store.send(
      .path(.element(id: 0, action: .detail(.destination(.presented(.edit(.binding(.set(\.syncUp, edited)))))))))
    try await store.send(.path(.element(id: 0, action: .detail(.doneEditingButtonTapped))))

    // A meeting: its timer on the test clock, what the recognizer heard, the end-meeting alert
    // and save, after which it dismisses itself.
    try await store.send(.path(.element(id: 0, action: .detail(.startMeetingButtonTapped))))
    let record = try #require(await store.state.path.ids.last)
    try await store.send(.path(.element(id: record, action: .record(.onTask))))
    #expect(await eventually { world.speech.value != nil })
    world.say("The build is green")
    #expect(await eventually { await store.state.path[id: record]?.record?.transcript != "" })
    #expect(
      await eventually {
        if await store.state.path[id: record]?.record?.secondsElapsed ?? 0 >= 2 { return true }
        await world.clock.advance(by: .seconds(1))
        return false
      })
    world.say("The build is green and the release is out")
    #expect(
      await eventually {
        await store.state.path[id: record]?.record?.transcript
          == "The build is green and the release is out"
      })
    try await store.send(.path(.element(id: record, action: .record(.endMeetingButtonTapped))))
    try await store.send(
      .path(.element(id: record, action: .record(.alert(.presented(.confirmSave))))))
    #expect(await eventually { await store.state.path.count == 1 })
  }

  @Test func aRecordedSessionRestoresAtEverySequenceAndGoesOn() async throws {
    // Decoding SyncUps' root state loads the list from disk (its `syncUpsList` property's
    // initial value is `SyncUpsList.State()`, which reads `\.dataManager`): the test's disk
    // stands in for it wherever a state is decoded.
    try await withDependencies {
      World().apply(&$0)
    } operation: {
      try await recordRestoreAndGoOn()
    }
  }

  func recordRestoreAndGoOn() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("syncups.sqlite")
    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 8))
    let world = World()
    let live = Live()
    let store = try await Self.open(journal, world: world, live: live)
    try await Self.session(store, world: world)

    // After the meeting was saved and popped, its clock goes on and nothing more is journaled.
    let afterMeeting = store.sequence
    await world.clock.advance(by: .seconds(10))
    world.say("nobody is listening")
    try await Task.sleep(for: .milliseconds(50))
    #expect(store.sequence == afterMeeting)
    let types = live.types.value
    #expect(types.values.contains { $0.contains("timerTick") })
    #expect(types.values.contains { $0.contains("speechResult") })

    // A past meeting, pushed as the state-only case it is; then the delete alert.
    let syncUp = try #require(await store.state.path[id: 0]?.detail?.syncUp)
    let meeting = try #require(syncUp.meetings.first)
    #expect(meeting.transcript == "The build is green and the release is out")
    try await store.send(.path(.push(id: 2, state: .meeting(meeting, syncUp: syncUp))))
    try await store.send(.path(.popFrom(id: 2)))
    try await store.send(.path(.element(id: 0, action: .detail(.deleteButtonTapped))))
    try await store.send(
      .path(.element(id: 0, action: .detail(.destination(.presented(.alert(.confirmDeletion)))))))
    #expect(await eventually { await store.state.path.isEmpty })
    // The app saves a second after the last change: to the test's disk, journaling nothing.
    await world.clock.advance(by: .seconds(1))
    #expect(await store.state.syncUpsList.syncUps.isEmpty)
    let head = store.sequence
    var states = live.states.value
    states[0] = try await Replayer(journal: journal) { AppFeature() }
      .restore(session: "syncups", at: .sequence(0)).state
    #expect(states.count == Int(head) + 1)

    // Every moment, replayed in another run's dependencies: the same IDs, dates and screens.
    let replayer = withDependencies { World().apply(&$0) } operation: {
      Replayer(journal: journal) { AppFeature() }
    }
    for sequence in 0...head {
      let restored = try await replayer.restore(session: "syncups", at: .sequence(sequence))
      #expect(restored.isComplete, "at \(sequence): \(restored.replayIssues)")
      #expect(restored.state == states[sequence], "at \(sequence) (\(types[sequence] ?? ""))")
    }
    let report = try await replayer.verify(session: "syncups")
    #expect(report.isClean, "\(String(describing: report.divergence))")

    // `stackjournal show --at N` names the screens and what is presented where, at every N.
    var shownPresentations: Set<String> = []
    var shownCases: Set<String> = []
    for sequence in 0...head {
      let shown = try runCLI(["show", "syncups", "--at", String(sequence), "--db", path, "--json"])
      #expect(shown.status == 0, "\(shown.stderr)")
      let object = try shown.jsonObject()
      let state = try #require(states[sequence])
      let stacks = object["stacks"] as? [[String: Any]] ?? []
      let path = stacks.first { $0["path"] as? String == "path" }
      let cases = (path?["elements"] as? [[String: Any]] ?? []).compactMap { $0["case"] as? String }
      #expect(cases == state.path.map(Self.caseName), "at \(sequence)")
      let presented = (object["presentations"] as? [[String: Any]] ?? []).compactMap {
        $0["path"] as? String
      }
      #expect(presented.sorted() == Self.presented(in: state), "at \(sequence)")
      shownPresentations.formUnion(presented)
      shownCases.formUnion(cases)
    }
    // The add and edit sheets, the end-meeting and delete alerts; every kind of screen.
    #expect(
      shownPresentations == [
        "syncUpsList.destination", "path[#0].detail.destination", "path[#1].record.alert",
      ])
    #expect(shownCases == ["detail", "record", "meeting"])
    let text = try runCLI(["verify", "--db", path])
    #expect(text.status == 0, "\(text.stdout)\(text.stderr)")

    // Reopened, it stands where it stopped, and goes on drawing fresh IDs.
    let reopenedJournal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 8))
    let again = try await Self.open(reopenedJournal, world: World(), live: Live())
    #expect(await again.state == states[head])
    try await again.send(.syncUpsList(.addSyncUpButtonTapped))
    let fresh = try #require(await again.state.syncUpsList.destination?.add?.syncUp.id)
    #expect(fresh != syncUp.id)
  }

  static func caseName(_ element: AppFeature.Path.State) -> String {
    switch element {
    case .detail: "detail"
    case .meeting: "meeting"
    case .record: "record"
    }
  }

  /// Where something is presented in a state, as the journal's paths name it.
  static func presented(in state: AppFeature.State) -> [String] {
    var found: [String] = []
    if state.syncUpsList.destination != nil { found.append("syncUpsList.destination") }
    for id in state.path.ids {
      switch state.path[id: id] {
      case let .detail(detail) where detail.destination != nil:
        found.append("path[#\(id.generation)].detail.destination")
      case let .record(record) where record.alert != nil:
        found.append("path[#\(id.generation)].record.alert")
      default: break
      }
    }
    return found.sorted()
  }
}
