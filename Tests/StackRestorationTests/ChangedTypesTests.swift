import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

/// The demo's root as a later version of the app might have it: the number-fact feature was
/// removed from the stack.
struct RootWithoutNumberFacts: Reducer {
  struct State: Equatable, Codable, Sendable {
    var path = StackState<Path.State>()
  }
  @CasePathable
  enum Action: Equatable, Codable, Sendable {
    case path(StackActionOf<Path>)
    case goBackToRootTapped
    case pushCounterTapped(count: Int)
  }
  struct Path: Reducer {
    @CasePathable
    enum State: Equatable, Codable, Sendable { case counter(CounterFeature.State) }
    @CasePathable
    enum Action: Equatable, Codable, Sendable { case counter(CounterFeature.Action) }
    var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { CounterFeature() }
    }
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .goBackToRootTapped:
        state.path.goBackToRoot()
      case let .pushCounterTapped(count):
        state.path.append(.counter(.init(count: count)))
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: \.path) { Path() }
  }
}

final class ChangedTypesTests: XCTestCase {
  /// A file holding the mixed session, closed, with its bytes as recorded.
  func mixedSessionFile() async throws -> (TemporaryDirectory, path: String, bytes: Data) {
    let directory = try TemporaryDirectory()
    let path = directory.path("journal.sqlite")
    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 3))
    try await recordMixedSession(journal)
    try journal.close()
    return (directory, path, try fileBytes(path))
  }

  /// Records: the deep link (#0 #1 #2), a number fact (#3), a counter (#4), taps on both.
  func recordMixedSession(_ journal: any JournalBackend) async throws {
    let store = try await RecordingStore.open(
      session: "mixed", journal: journal, initialState: DemoScript.deepLink
    ) {
      RootFeature()
    }
    try await store.send(.pushNumberFactTapped(number: 7))  // 1
    try await store.send(.pushCounterTapped(count: 1))  // 2
    try await store.send(.path(.element(id: 4, action: .counter(.incrementButtonTapped))))  // 3
    try await store.send(.path(.element(id: 3, action: .numberFact(.incrementButtonTapped))))  // 4
    try await store.send(.path(.element(id: 1, action: .counter(.decrementButtonTapped))))  // 5
  }

  func testRemovedCaseRestoresTheDecodablePrefixAndReportsTheRest() async throws {
    let (directory, path, before) = try await mixedSessionFile()
    defer { directory.remove() }
    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 3))
    let replayer = Replayer(journal: journal) { RootWithoutNumberFacts() }

    // At the head: snapshot 3 holds the number fact at #3; the stack is cut there.
    let head = try await replayer.restore(session: "mixed")
    XCTAssertEqual(head.state.path.ids, [0, 1, 2])
    XCTAssertEqual(head.state.path[id: 1], .counter(.init(count: 1728)))
    XCTAssertEqual(head.state.path.nextID, 5, "IDs #3 and #4 are never handed out again")
    XCTAssertEqual(head.skipped.map(\.kind), [
      .element(stackPath: "path", id: 3),
      .entry(sequence: 4, type: "path.element.numberFact.incrementButtonTapped"),
      .entry(sequence: 5, type: "path.element.counter.decrementButtonTapped"),
    ])
    XCTAssertTrue(head.skipped[2].reason.contains("follows entry 4"), head.skipped[2].reason)
    XCTAssertFalse(head.isComplete)

    // At sequence 2, from snapshot 0: entry 1 (the number fact's push) does not decode, so
    // the stack comes from the journal's record of it, cut at the number fact.
    let atTwo = try await replayer.restore(session: "mixed", at: .sequence(2))
    XCTAssertEqual(atTwo.state.path.ids, [0, 1, 2])
    XCTAssertEqual(atTwo.state.path.nextID, 5)
    XCTAssertEqual(atTwo.skipped.map(\.kind), [
      .entry(sequence: 1, type: "pushNumberFactTapped"),
      .entry(sequence: 2, type: "pushCounterTapped"),
      .element(stackPath: "path", id: 3),
    ])
    var next = atTwo.state
    next.path.append(.counter(.init()))
    XCTAssertEqual(next.path.ids.last, 5)

    // Sequence 0 decodes completely.
    let sequenceResult = try await replayer.restore(session: "mixed", at: .sequence(0)).isComplete
    XCTAssertTrue(sequenceResult)

    XCTAssertEqual(try fileBytes(path), before, "restoring never changes the file")
  }

  func testReopeningAfterTypesChangedIsRefusedUnlessAcceptedThenRepairedExplicitly() async throws {
    let (directory, path, before) = try await mixedSessionFile()
    defer { directory.remove() }
    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 3))

    await XCTAssertThrowsErrorAsync({
      try await RecordingStore.open(
        session: "mixed", journal: journal, initialState: RootWithoutNumberFacts.State()
      ) {
        RootWithoutNumberFacts()
      }
    }) { error in
      XCTAssertEqual((error as? RestorationError)?.code, .incompleteRestore)
      XCTAssertTrue("\(error)".contains("stack element #3"), "\(error)")
    }
    XCTAssertEqual(try fileBytes(path), before, "a refused open changes nothing")

    let store = try await RecordingStore.open(
      session: "mixed", journal: journal, initialState: RootWithoutNumberFacts.State(),
      acceptingIncompleteRestore: true
    ) {
      RootWithoutNumberFacts()
    }
    XCTAssertEqual(store.sequence, 6)
    var repair: JournalEntry?
    try await journal.entries(session: "mixed", after: 5) { repair = $0; return false }
    XCTAssertEqual(repair?.type, "stackjournal.repair")
    XCTAssertEqual(repair?.delta.changes.first?.popped, [3, 4], "the loss is the repair's")

    try await store.send(.pushCounterTapped(count: 9))
    let live = await store.state
    XCTAssertEqual(live.path.ids, [0, 1, 2, 5], "no ID is handed out twice")

    let replayer = Replayer(journal: journal) { RootWithoutNumberFacts() }
    let restored = try await replayer.restore(session: "mixed")
    assertRestored(restored.state, equals: live)
    XCTAssertTrue(restored.isComplete)
    let verifyResult = try await replayer.verify(session: "mixed", from: 6).isClean
    XCTAssertTrue(verifyResult)
    XCTAssertTrue(try journal.verifyStorage().isClean)

    // The app version that wrote the history still restores it, repair included.
    let original = try await Replayer(journal: journal) { RootFeature() }.restore(session: "mixed")
    XCTAssertEqual(original.state.path.ids, [0, 1, 2, 5])
  }

  func testARecordedStackWithNoPlaceInTheRestoredStateIsReported() async throws {
    struct Detail: Equatable, Codable, Sendable { var inner: StackState<Int> }
    struct State: Equatable, Codable, Sendable { var detail: Detail? }
    enum V1: Equatable, Codable, Sendable { case legacy, openDetail }
    enum V2: Equatable, Codable, Sendable { case openDetail }
    let journal = try SQLiteJournal.inMemory()
    let store = try await RecordingStore.open(session: "detail", journal: journal, initialState: State()) {
      Reduce<State, V1> { state, action in
        if action == .openDetail { state.detail = Detail(inner: [1, 2]) }
        return .none
      }
    }
    try await store.send(.legacy)
    try await store.send(.openDetail)
    let restored = try await Replayer<State, V2>(journal: journal) {
      Reduce<State, V2> { state, _ in
        state.detail = Detail(inner: [1, 2])
        return .none
      }
    }.restore(session: "detail")
    XCTAssertNil(restored.state.detail)
    XCTAssertEqual(restored.skipped.map(\.kind), [
      .entry(sequence: 1, type: "legacy"),
      .entry(sequence: 2, type: "openDetail"),
      .stack(path: "detail.inner"),
    ])
  }

  func testRenamedFieldWithoutUpcasterIsReported() async throws {
    struct RenamedCounter: Codable, Equatable, Sendable { var value: Int }
    struct Root: Codable, Equatable, Sendable { var path: StackState<RenamedCounter> }
    let journal = try SQLiteJournal.inMemory()
    let store = try await RecordingStore.open(
      session: "renamed", journal: journal, initialState: DemoScript.deepLink
    ) {
      RootFeature()
    }
    try await store.send(.pushCounterTapped(count: 1))
    let restored = try await Replayer<Root, Never>(journal: journal) {
      EmptyReducer<Root, Never>()
    }.restore(session: "renamed", at: .sequence(0))
    XCTAssertEqual(restored.state.path.ids, [])
    XCTAssertEqual(restored.state.path.nextID, 3)
    XCTAssertEqual(restored.skipped.count, 1)
    XCTAssertTrue(restored.skipped[0].reason.contains("value"), restored.skipped[0].reason)
  }

  func testANewerPayloadVersionIsRefused() async throws {
    let journal = try SQLiteJournal.inMemory()
    let store = try await RecordingStore.open(
      session: "future", journal: journal, initialState: DemoScript.deepLink,
      payloadVersion: 3
    ) {
      RootFeature()
    }
    try await store.send(.pushCounterTapped(count: 1))
    await XCTAssertThrowsErrorAsync({
      try await Replayer(journal: journal, payloadVersion: 2) { RootFeature() }
        .restore(session: "future")
    }) { error in
      XCTAssertEqual((error as? RestorationError)?.code, .newerPayloadVersion)
      XCTAssertTrue("\(error)".contains("payload version 3"), "\(error)")
    }
    _ = try await Replayer(journal: journal, payloadVersion: 3) { RootFeature() }
      .restore(session: "future")
  }
}
