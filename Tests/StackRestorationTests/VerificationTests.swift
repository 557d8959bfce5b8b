import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

final class VerificationTests: XCTestCase {
  func testACleanJournalVerifies() async throws {
    for test in try await Backends.all(.init(snapshotInterval: 16)) {
      _ = try await recordScriptedSession("clean", into: test.journal, count: 120)
      let report = try await replayer(test.journal).verify(session: "clean")
      XCTAssertTrue(report.isClean, "\(test.name): \(String(describing: report.divergence))")
      let headSequenceResult = try await test.journal.headSequence(session: "clean")
      XCTAssertEqual(Int64(report.checkedCount), headSequenceResult)
    }
  }

  func testAChangedReducerIsReportedAtTheFirstDivergentSequence() async throws {
    let test = try TestJournal.inMemory(snapshotInterval: 4)
    let store = try await RecordingStore.open(
      session: "changed", journal: test.journal, initialState: DemoScript.deepLink
    ) {
      RootFeature()
    }
    try await store.send(.path(.popFrom(id: 2)))  // 1
    try await store.send(.pushNumberFactTapped(number: 3))  // 2
    try await store.send(.path(.element(id: 3, action: .numberFact(.incrementButtonTapped))))  // 3
    try await store.send(.path(.element(id: 0, action: .counter(.decrementButtonTapped))))  // 4
    try await store.send(.path(.element(id: 0, action: .counter(.decrementButtonTapped))))  // 5

    // The new version's counter decrements by two.
    let changed = Replayer(journal: test.journal) {
      Reduce<RootFeature.State, RootFeature.Action> { state, action in
        if case let .path(.element(id, .counter(.decrementButtonTapped))) = action {
          state.path[id: id, case: \.counter]?.count -= 1
        }
        return .none
      }
      RootFeature()
    }
    let report = try await changed.verify(session: "changed")
    let divergence = try XCTUnwrap(report.divergence)
    XCTAssertEqual(divergence.sequence, 4)
    XCTAssertEqual(divergence.kind, .changedReducer)
    XCTAssertEqual(divergence.type, "path.element.counter.decrementButtonTapped")
    XCTAssertEqual(
      divergence.details,
      [#"stack 'path' element #0: recorded {"counter":{"_0":{"count":41}}}, replayed {"counter":{"_0":{"count":40}}}"#]
    )
    XCTAssertEqual(report.checkedCount, 4)

    // A range starting at snapshot 4 starts from the recorded state.
    let fromFour = try await changed.verify(session: "changed", from: 4)
    XCTAssertEqual(fromFour.divergence?.sequence, 5)
    XCTAssertEqual(fromFour.range, 4...5)
  }

  func testANondeterministicReducerIsReportedAsSuch() async throws {
    let test = try TestJournal.inMemory()
    let store = try await RecordingStore.open(
      session: "random", journal: test.journal, initialState: RootFeature.State()
    ) {
      RootFeature()
    }
    try await store.send(.pushCounterTapped(count: 1))
    let nondeterministic = Replayer(journal: test.journal) {
      Reduce<RootFeature.State, RootFeature.Action> { state, action in
        if case .pushCounterTapped = action {
          state.path.append(.counter(.init(count: Int.random(in: 1_000...1_000_000))))
        }
        return .none
      }
    }
    let report = try await nondeterministic.verify(session: "random")
    XCTAssertEqual(report.divergence?.sequence, 1)
    XCTAssertEqual(report.divergence?.kind, .nondeterministicReducer)
  }

  func testAnEntryThatNoLongerDecodesIsReported() async throws {
    let test = try TestJournal.inMemory()
    let store = try await RecordingStore.open(
      session: "types", journal: test.journal, initialState: RootFeature.State()
    ) {
      RootFeature()
    }
    try await store.send(.pushCounterTapped(count: 1))
    try await store.send(.pushNumberFactTapped(number: 1))
    let report = try await Replayer(journal: test.journal) { RootWithoutNumberFacts() }
      .verify(session: "types")
    XCTAssertEqual(report.divergence?.sequence, 2)
    XCTAssertEqual(report.divergence?.kind, .undecodableEntry)
  }
}
