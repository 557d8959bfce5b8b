// Replay runs a reducer in the environment the recording ran in: a process whose time zone is
// another reaches the same state for a reducer that reads the hour of `now` from `\.calendar`.
// XCTest runs its cases one at a time, so the process's time zone can be changed for this one.
import Foundation
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

@Reducer
struct Diary {
  @ObservableState
  struct State: Equatable, Codable {
    var stamps: [String] = []
  }
  enum Action: Codable {
    case stampTapped
  }

  @Dependency(\.date.now) var now
  @Dependency(\.calendar) var calendar

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      let parts = calendar.dateComponents([.day, .hour, .minute, .weekday], from: now)
      state.stamps.append(
        "day \(parts.day!) weekday \(parts.weekday!) at \(parts.hour!):\(parts.minute!) in "
          + calendar.timeZone.identifier)
      return .none
    }
  }
}

final class TimeZoneReplayTests: XCTestCase {
  private var originalZone: String?

  override func setUp() {
    originalZone = ProcessInfo.processInfo.environment["TZ"]
  }

  override func tearDown() {
    if let originalZone { setenv("TZ", originalZone, 1) } else { unsetenv("TZ") }
    NSTimeZone.resetSystemTimeZone()
  }

  private func setProcessZone(_ identifier: String) {
    setenv("TZ", identifier, 1)
    NSTimeZone.resetSystemTimeZone()
    XCTAssertEqual(TimeZone.current.identifier, identifier)
  }

  func testReplayInAnotherTimeZoneReachesTheRecordedState() async throws {
    let test = try Backends.sqliteOnDisk(.init(snapshotInterval: 2))
    setProcessZone("Pacific/Auckland")
    let recorded = try await withLiveDraws {
      let store = try await RecordingStore.open(
        session: "diary", journal: test.journal, initialState: Diary.State()
      ) {
        Diary()
      }
      for _ in 1...5 { try await store.send(.stampTapped) }
      return await store.state
    }
    XCTAssertTrue(recorded.stamps.allSatisfy { $0.hasSuffix("in Pacific/Auckland") })

    setProcessZone("America/Los_Angeles")
    let journal = try await test.reopen()
    for sequence: Int64 in 0...5 {
      let restored = try await withLiveDraws {
        try await Replayer(journal: journal) { Diary() }
          .restore(session: "diary", at: .sequence(sequence))
      }
      XCTAssertEqual(restored.state.stamps, Array(recorded.stamps.prefix(Int(sequence))))
      XCTAssertEqual(restored.replayIssues, [])
    }
    let report = try await withLiveDraws {
      try await Replayer(journal: journal) { Diary() }.verify(session: "diary")
    }
    XCTAssertTrue(report.isClean, String(describing: report.divergence))
  }
}
