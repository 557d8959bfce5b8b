// Coordinators recorded by a RecordingStore: given a journal of the Coordinators article's flow, when restored
// at any sequence (snapshot + replay), the state is the live one, route identities included;
// the routes are stored as stack rows whose elements name their presentation style.
import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import Testing

/// Records `script` into a fresh session and returns the live state at every sequence.
private func record<R: Reducer>(
  _ session: SessionID,
  into journal: SQLiteJournal,
  initialState: R.State,
  reducer: @escaping @Sendable () -> R,
  script: [R.Action]
) async throws -> [Int64: R.State]
where R.State: Codable & Sendable & Equatable, R.Action: Codable & Sendable {
  let live = LockIsolated<[Int64: R.State]>([0: initialState])
  let store = try await RecordingStore.open(
    session: session, journal: journal, initialState: initialState,
    reducer: { reducer() },
    onRecorded: { sequence, transition in
      live.withValue { $0[sequence] = transition.stateAfter }
    })
  for action in script {
    try await store.send(action).finish()
    await store.waitForEffects()
  }
  #expect(store.sequence == Int64(live.value.count - 1))
  return live.value
}

/// Checks a recorded session against the live states: restored state and stack rows at every
/// sequence, replay verification, and the file's own checks.
private func checkRestoresEverySequence<R: Reducer>(
  _ session: SessionID,
  in journal: SQLiteJournal,
  live: [Int64: R.State],
  reducer: @escaping () -> R
) async throws where R.State: Codable & Sendable & Equatable, R.Action: Codable & Sendable {
  let replayer = Replayer<R.State, R.Action>(journal: journal, reducer: reducer)
  let head = try journal.headSequence(session: session)
  #expect(head == Int64(live.count - 1))
  for sequence in 0...head {
    let restored = try await replayer.restore(session: session, at: .sequence(sequence))
    #expect(restored.skipped.isEmpty)
    #expect(restored.state == live[sequence], "at sequence \(sequence)")
    // The rows the journal rebuilds without the app's types are those of the live state.
    let expected = try StateEncoding.encode(try #require(live[sequence])).stacks
    #expect(try journal.stacks(session: session, at: sequence) == expected, "at \(sequence)")
    // From the initial snapshot only, too: the deltas alone lead to the same state.
    let replayed = try await replayer.restore(
      session: session, at: .sequence(sequence), startingAtOrBelow: 0)
    #expect(replayed.state == live[sequence], "replayed from 0 to \(sequence)")
  }
  #expect(try journal.headStacks(session: session) == journal.stacks(session: session, at: head))
  #expect(try await replayer.verify(session: session).isClean)
  let storage = try journal.verifyStorage()
  #expect(storage.isClean, "\(storage)")
}

@Suite struct CoordinatorRecordingTests {
  /// The README's flow, with an effect (the number fact) whose action is journaled too.
  static let script: [Coordinator.Action] = [
    .router(.routeAction(0, action: .home(.startTapped))),
    .router(.routeAction(1, action: .numbersList(.numberSelected(42)))),
    .router(.routeAction(2, action: .numberDetail(.factButtonTapped))),
    .router(.routeAction(2, action: .numberDetail(.incrementTapped))),
    .router(.routeAction(2, action: .numberDetail(.showDouble(43)))),
    .router(.routeAction(3, action: .numberDetail(.goBackToNumbersList))),
    .router(.routeAction(1, action: .numbersList(.numberSelected(7)))),
    .router(.routeAction(2, action: .numberDetail(.goBackTapped))),
    .router(.routeAction(1, action: .numbersList(.numberSelected(3)))),
    .router(.routeAction(2, action: .numberDetail(.goBackToRootTapped))),
  ]

  @Test(arguments: [1, 3, 16])
  func indexedRoutesRestoredAtEverySequence(snapshotInterval: Int) async throws {
    let directory = try TemporaryDirectory()
    let journal = try SQLiteJournal(
      path: directory.path("coordinator.sqlite"),
      options: .init(snapshotInterval: snapshotInterval))
    let live = try await record(
      "coordinator", into: journal, initialState: Coordinator.State(),
      reducer: { Coordinator() }, script: Self.script)
    // Ten sends, one effect's answer, two `updateRoutes` sent by routeWithDelaysIfUnsupported.
    #expect(live.count == 14)
    try await checkRestoresEverySequence("coordinator", in: journal, live: live) { Coordinator() }

    // After the push of 42: three routes, each stored with its style as its case.
    let stacks = try journal.stacks(session: "coordinator", at: 2)
    #expect(stacks.map(\.path) == ["routes"])
    #expect(stacks[0].ids == [0, 1, 2])
    #expect(stacks[0].nextID == .routesNextID)
    #expect(stacks[0].elements.map(\.caseName) == ["sheet", "sheet", "push"])
    #expect(
      stacks[0].elements[2].state
        == #"{"push":{"screen":{"numberDetail":{"_0":{"id":0,"number":42}}}}}"#)
    let fact = try journal.stacks(session: "coordinator", at: 4)[0].elements[2].state
    #expect(fact.contains(#""fact":"42 is even"#))
  }

  @Test func identifiedRoutesRestoredAtEverySequenceWithTheirIDs() async throws {
    let directory = try TemporaryDirectory()
    let journal = try SQLiteJournal(
      path: directory.path("identified.sqlite"), options: .init(snapshotInterval: 4))
    let script: [IdentifiedCoordinator.Action] = [
      .router(.routeAction(0, action: .home(.startTapped))),
      .router(.routeAction(1, action: .numbersList(.numberSelected(42)))),
      .router(.routeAction(2, action: .numberDetail(.factButtonTapped))),
      .router(.routeAction(2, action: .numberDetail(.goBackTapped))),
      .router(.routeAction(1, action: .numbersList(.numberSelected(7)))),
      .router(.routeAction(3, action: .numberDetail(.incrementTapped))),
      .router(.routeAction(3, action: .numberDetail(.goBackToNumbersList))),
      .router(.routeAction(1, action: .numbersList(.numberSelected(5)))),
    ]
    let live = try await record(
      "identified", into: journal, initialState: IdentifiedCoordinator.State(),
      reducer: { IdentifiedCoordinator() }, script: script)
    try await checkRestoresEverySequence("identified", in: journal, live: live) {
      IdentifiedCoordinator()
    }
    let replayer = Replayer<IdentifiedCoordinator.State, IdentifiedCoordinator.Action>(
      journal: journal
    ) { IdentifiedCoordinator() }
    for (sequence, state) in live {
      let restored = try await replayer.restore(session: "identified", at: .sequence(sequence)).state
      #expect(restored.routes.ids == state.routes.ids, "at \(sequence)")
      #expect(restored.nextScreenID == state.nextScreenID)
    }
    let head = try await replayer.restore(session: "identified").state
    #expect(head.routes.ids == [0, 1, 4])
    // A later screen gets a new ID after a restore: the counter is part of the state.
    var restoredState = head
    restoredState.routes.goBack()
    _ = IdentifiedCoordinator().reduce(
      into: &restoredState,
      action: .router(.routeAction(1, action: .numbersList(.numberSelected(1)))))
    #expect(restoredState.routes.ids == [0, 1, 5])
  }

  @Test func childCoordinatorStoredUnderItsPath() async throws {
    let directory = try TemporaryDirectory()
    let journal = try SQLiteJournal(
      path: directory.path("child.sqlite"), options: .init(snapshotInterval: 3))
    let script: [ParentCoordinator.Action] = [
      .router(.routeAction(0, action: .home(.startFlowTapped))),
      .router(.routeAction(1, action: .numbersFlow(.router(.routeAction(
        0, action: .numbersList(.numberSelected(7))))))),
      .router(.routeAction(1, action: .numbersFlow(.router(.routeAction(
        1, action: .numberDetail(.incrementTapped)))))),
      .router(.routeAction(1, action: .numbersFlow(.router(.routeAction(
        1, action: .numberDetail(.factButtonTapped)))))),
      .router(.routeAction(1, action: .numbersFlow(.router(.routeAction(
        1, action: .numberDetail(.goBackTapped)))))),
      .router(.updateRoutes([.root(.home(.init()), embedInNavigationView: true)])),
    ]
    let live = try await record(
      "child", into: journal, initialState: ParentCoordinator.State(),
      reducer: { ParentCoordinator() }, script: script)
    try await checkRestoresEverySequence("child", in: journal, live: live) { ParentCoordinator() }

    let stacks = try journal.stacks(session: "child", at: 5)
    #expect(stacks.map(\.path) == ["routes", "routes[#1].numbersFlow.routes"])
    #expect(stacks[0].elements.map(\.caseName) == ["sheet", "push"])
    #expect(stacks[1].elements.map(\.caseName) == ["sheet", "push"])
    #expect(stacks[1].elements[1].state.contains(#""fact":"8 is even"#))
    let atHead = try journal.stacks(session: "child", at: journal.headSequence(session: "child"))
    #expect(atHead.map(\.path) == ["routes"], "the child's routes left with it")
  }
}
