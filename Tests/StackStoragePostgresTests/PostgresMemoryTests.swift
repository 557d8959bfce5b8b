#if PostgreSQL
  import Foundation
  import StackStorage
  @testable import StackJournalCore
@testable import StackStoragePostgres
  import XCTest

  /// What a call leaves in memory once it returned: nothing that lives until its timeout. Each
  /// suspending call (every append of a `RecordingStore`) used to leave a block on the bridge's
  /// queue until its 30-second deadline, holding the call's task and outcome: a service's RSS
  /// grew by ~7 KB per action times the actions of the last 30 seconds (issue 29, defect 5).
  final class OperationDeadlineMemoryTests: XCTestCase {
    func testTheBridgeKeepsNothingOfARunThatReturned() async throws {
      let bridge = OperationDeadline()
      for index in 0..<1_000 {
        let result = await bridge.run(timeout: .seconds(60)) { index }
        XCTAssertEqual(try result?.get(), index)
      }
      let left = try await outcomesInMemory(bridge)
      XCTAssertEqual(left, 0, "outcomes of 1,000 finished runs still in memory")
    }
  }

  /// Polls for up to five seconds (a cancelled timer is released on the bridge's queue).
  func outcomesInMemory(_ bridge: OperationDeadline) async throws -> Int {
    for _ in 0..<100 where bridge.outcomesInMemory > 0 {
      try await Task.sleep(for: .milliseconds(50))
    }
    return bridge.outcomesInMemory
  }

  /// The same through the journal, on the server of `STACKJOURNAL_TEST_POSTGRES_URL`.
  final class PostgresMemoryTests: PostgresTestCase {
    func testAppendsLeaveNothingBehindUntilTheirTimeout() async throws {
      let journal = try await PostgresJournal(url: url)
      defer { journal.close() }
      let empty = EncodedState(json: Data("{}".utf8), stacks: [])
      _ = try await journal.createSession("memory", initial: empty, version: 1)
      for sequence in Int64(0)..<500 {
        let appended = try await journal.append(
          session: "memory", expectedSequence: sequence,
          JournalEntryDelta(type: "tick", version: 1, payload: Data("1".utf8), delta: StackDelta()))
        XCTAssertEqual(appended, sequence + 1)
      }
      let left = try await outcomesInMemory(journal.deadline)
      XCTAssertEqual(left, 0, "outcomes of 500 appends still in memory")
    }
  }
#endif
