import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

/// A journal for a test: in memory, or in a file of a fresh temporary directory.
struct TestJournal {
  let name: String
  let journal: SQLiteJournal
  let directory: TemporaryDirectory?

  var path: String? { directory?.path("journal.sqlite") }

  static func inMemory(snapshotInterval: Int = 16) throws -> TestJournal {
    TestJournal(
      name: "in-memory",
      journal: try SQLiteJournal.inMemory(options: .init(snapshotInterval: snapshotInterval)),
      directory: nil)
  }

  static func onDisk(snapshotInterval: Int = 16) throws -> TestJournal {
    let directory = try TemporaryDirectory()
    return TestJournal(
      name: "on-disk",
      journal: try SQLiteJournal(
        path: directory.path("journal.sqlite"),
        options: .init(snapshotInterval: snapshotInterval)),
      directory: directory)
  }

  static func both(snapshotInterval: Int = 16) throws -> [TestJournal] {
    [try inMemory(snapshotInterval: snapshotInterval), try onDisk(snapshotInterval: snapshotInterval)]
  }
}

/// The states a recording store went through, by sequence, captured while it recorded.
final class LiveStates: Sendable {
  private let states = LockIsolated<[Int64: RootFeature.State]>([:])
  private let actions = LockIsolated<[Int64: RootFeature.Action]>([:])

  func record(_ sequence: Int64, _ transition: StoreTransition<RootFeature.State, RootFeature.Action>) {
    states.withValue { $0[sequence] = transition.stateAfter }
    actions.withValue { $0[sequence] = transition.action }
  }

  func set(_ sequence: Int64, _ state: RootFeature.State) {
    states.withValue { $0[sequence] = state }
  }

  subscript(sequence: Int64) -> RootFeature.State? { states.value[sequence] }
  func action(at sequence: Int64) -> RootFeature.Action? { actions.value[sequence] }
  var count: Int { states.value.count }
}

/// Records a scripted demo session of at least `count` actions and returns the live states.
func recordScriptedSession(
  _ session: SessionID,
  into journal: any JournalBackend,
  count: Int,
  seed: UInt64 = 7
) async throws -> LiveStates {
  let live = LiveStates()
  live.set(0, DemoScript.deepLink)
  let store = try await RecordingStore.open(
    session: session, journal: journal, initialState: DemoScript.deepLink,
    reducer: { RootFeature() },
    onRecorded: { live.record($0, $1) })
  var generator = SeededGenerator(seed: seed)
  while store.sequence < count {
    let state = await store.state
    try await store.send(DemoScript.nextAction(for: state, using: &generator)).finish()
    await store.waitForEffects()
  }
  return live
}

/// Asserts that a restored state equals the live one, and that their stacks hand out the same
/// next IDs (state equality compares stacks by IDs and elements only).
func assertRestored<State: Equatable & Encodable>(
  _ restored: State?,
  equals live: State?,
  _ message: @autoclosure () -> String = "",
  file: StaticString = #filePath,
  line: UInt = #line
) {
  XCTAssertEqual(restored, live, message(), file: file, line: line)
  XCTAssertEqual(
    restored.flatMap { try? durableJSON($0) }, live.flatMap { try? durableJSON($0) },
    "next IDs differ: \(message())", file: file, line: line)
}

func replayer(_ journal: any JournalBackend) -> Replayer<RootFeature.State, RootFeature.Action> {
  Replayer(journal: journal) { RootFeature() }
}

/// `XCTAssertThrowsError` for an expression that suspends: fails when `expression` returns,
/// and hands the error to `handler` otherwise.
func XCTAssertThrowsErrorAsync<T>(
  _ expression: () async throws -> T,
  _ message: @autoclosure () -> String = "",
  file: StaticString = #filePath,
  line: UInt = #line,
  _ handler: (any Error) -> Void = { _ in }
) async {
  do {
    _ = try await expression()
    XCTFail("XCTAssertThrowsError failed: did not throw an error. \(message())", file: file, line: line)
  } catch {
    handler(error)
  }
}
