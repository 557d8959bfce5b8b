// The seed episode's number-fact flow with its alert and a sheet that dismisses itself, recorded
// by a RecordingStore on every backend under test and restored at every sequence: the journal
// holds what is presented where at each moment, and a reopened session continues from an open
// alert.
import ConcurrencyExtras
import Foundation
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import Testing

@Suite struct SeedPresentationRecordingTests {
  /// The actions sent from outside; effects add the responses, the second fact and the sheet's
  /// own dismissal.
  static let script: [CounterStackFeature.Action] = [
    .path(.element(id: 1, action: .numberFact(.factButtonTapped))),
    .path(.element(id: 1, action: .numberFact(.alert(.presented(.tryAgain))))),
    .path(.element(id: 1, action: .numberFact(.alert(.dismiss)))),
    .settingsButtonTapped,
    .destination(.presented(.settings(.tick))),
    .destination(.presented(.settings(.closeButtonTapped))),
    .path(.element(id: 1, action: .numberFact(.factButtonTapped))),
    .path(.popFrom(id: 1)),
    .resetButtonTapped,
    .destination(.presented(.confirmReset(.confirm))),
    .path(.push(id: 2, state: .numberFact(.init(number: 7)))),
    .path(.element(id: 2, action: .numberFact(.factButtonTapped))),
  ]

  static let initial = CounterStackFeature.State(
    path: [.counter(.init(count: 1)), .numberFact(.init(number: 42))])

  /// What a state presents, where, as the journal's paths name the places (an element's case
  /// is part of the path of what it holds): the alert of each number-fact element and the
  /// destination at the root, with the alert's title or the
  /// destination's case.
  static func presented(in state: CounterStackFeature.State) -> [String: String] {
    var found: [String: String] = [:]
    for id in state.path.ids {
      if case .numberFact(let fact) = state.path[id: id], let alert = fact.alert {
        found["path[#\(id.generation)].numberFact.alert"] = String(describing: alert.title)
      }
    }
    switch state.destination {
    case .settings: found["destination"] = "settings"
    case .confirmReset: found["destination"] = "confirmReset"
    case nil: break
    }
    return found
  }

  /// The same, read from the journal's records at a sequence without the app's types.
  static func presented(in records: [StackRecord]) -> [String: String] {
    var found: [String: String] = [:]
    for record in records where record.isPresentation {
      let element = record.elements[0]
      if record.path.hasSuffix(".numberFact.alert"),
        let object = try? JSONSerialization.jsonObject(with: Data(element.state.utf8))
          as? [String: Any], let title = object["title"] as? String
      {
        found[record.path] = title
      } else {
        found[record.path] = element.caseName ?? "?"
      }
    }
    return found
  }

  @Test func recordedAndRestoredAtEverySequenceOnEveryBackend() async throws {
    for backend in try await Backends.all(.init(snapshotInterval: 3)) {
      try await recordAndRestore(on: backend)
    }
  }

  func recordAndRestore(on backend: BackendUnderTest) async throws {
    let journal = backend.journal
    let session: SessionID = "seed-alert"
    let live = LockIsolated<[Int64: CounterStackFeature.State]>([0: Self.initial])
    let store = try await RecordingStore.open(
      session: session, journal: journal, initialState: Self.initial,
      reducer: { CounterStackFeature() },
      onRecorded: { sequence, transition in
        live.withValue { $0[sequence] = transition.stateAfter }
      })
    for action in Self.script {
      try await store.send(action).finish()
    }
    let head = store.sequence
    let states = live.value
    // Every sequence was seen, and the flow went through each presentation the issue names.
    #expect(states.count == Int(head) + 1, "\(backend.name)")
    let moments = (0...head).map { Self.presented(in: states[$0]!) }
    #expect(moments.contains { $0["path[#1].numberFact.alert"] == "42 is a good number." })
    #expect(moments.contains { $0["destination"] == "settings" })
    #expect(moments.contains { $0["destination"] == "confirmReset" })
    #expect(moments.last == ["path[#2].numberFact.alert": "7 is a good number."])
    // The sheet dismissed itself: the entry after its close button is its own `.dismiss`.
    var types: [String] = []
    try await journal.entries(session: session, after: 0, through: nil) { entry in
      types.append(entry.type)
      return true
    }
    let close = try #require(types.firstIndex { $0.contains("closeButtonTapped") })
    #expect(types[close + 1] == "destination.dismiss", "\(backend.name)")

    let replayer = Replayer(journal: journal) { CounterStackFeature() }
    for sequence in 0...head {
      let restored = try await replayer.restore(session: session, at: .sequence(sequence))
      #expect(restored.skipped.isEmpty)
      #expect(restored.state == states[sequence], "\(backend.name) at sequence \(sequence)")
      // The journal alone says what is presented where, as the live state does.
      let records = try await journal.stacks(session: session, at: sequence)
      #expect(
        Self.presented(in: records) == Self.presented(in: states[sequence]!),
        "\(backend.name) at sequence \(sequence)")
      #expect(
        records == (try StateEncoding.encode(states[sequence]!).stacks),
        "\(backend.name) at sequence \(sequence)")
    }

    // A fork at a moment the alert is open starts with it, and dismissing it there works.
    let alertOpen = try #require(moments.firstIndex { $0["path[#1].numberFact.alert"] != nil })
    let fork = try await RecordingStore.fork(
      session, at: .sequence(Int64(alertOpen)), into: "seed-alert-fork", journal: journal
    ) {
      CounterStackFeature()
    }
    let forkState = await fork.state
    #expect(forkState == states[Int64(alertOpen)], "\(backend.name)")
    #expect(
      Self.presented(in: try await journal.headStacks(session: "seed-alert-fork"))
        == moments[alertOpen], "\(backend.name)")
    try await fork.send(.path(.element(id: 1, action: .numberFact(.alert(.dismiss))))).finish()
    let forkHead = try await journal.headStacks(session: "seed-alert-fork")
    #expect(Self.presented(in: forkHead)["path[#1].numberFact.alert"] == nil, "\(backend.name)")

    // An export imported into another journal holds the same moments.
    if let sqlite = journal as? SQLiteJournal {
      var export = Data()
      _ = try await SessionExporter().export(session, of: sqlite) { export.append($0) }
      let directory = try TemporaryDirectory()
      let file = directory.path("seed-alert.ndjson")
      try export.write(to: URL(fileURLWithPath: file))
      let other = try SQLiteJournal(path: directory.path("copy.sqlite"))
      _ = try SessionImporter().importSession(
        SessionExportFile.read(path: file), as: "copy", into: other)
      for sequence in 0...head {
        let copied = try await other.stacks(session: "copy", at: sequence)
        #expect(copied == (try await journal.stacks(session: session, at: sequence)))
      }
      try other.close()
    }

    // A reopened session continues from the open alert: dismissing it works and is journaled.
    guard backend.canReopen else { return }
    let reopened = try await backend.reopen()
    let continued = try await RecordingStore.open(
      session: session, journal: reopened, initialState: Self.initial,
      reducer: { CounterStackFeature() })
    let reopenedState = await continued.state
    #expect(Self.presented(in: reopenedState) == ["path[#2].numberFact.alert": "7 is a good number."])
    try await continued.send(.path(.element(id: 2, action: .numberFact(.alert(.dismiss)))))
      .finish()
    #expect(continued.sequence == head + 1)
    let dismissedState = await continued.state
    #expect(Self.presented(in: dismissedState).isEmpty)
    let after = try await reopened.headStacks(session: session)
    #expect(Self.presented(in: after).isEmpty, "\(backend.name)")
    let restored = try await Replayer(journal: reopened) { CounterStackFeature() }
      .restore(session: session)
    #expect(restored.state == dismissedState)
    #expect(restored.state.path[id: 2, case: \.numberFact]?.alert == nil)
  }
}
