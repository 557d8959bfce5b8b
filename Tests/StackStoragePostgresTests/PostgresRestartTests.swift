#if PostgreSQL
  import Foundation
  import StackJournalTestSupport
  import StackStorage
  import StackStoragePostgres
  import XCTest

  final class PostgresRestartTests: PostgresTestCase {
    /// `scripts/postgres.sh restart` (an immediate restart, as after a crash) while one writer
    /// appends as fast as it can: the call in flight fails with `connectionLost`, the next one
    /// connects again, and every acknowledged sequence is in the journal, with no gap.
    func testAServerRestartUnderAWriterLosesNothingAcknowledged() throws {
      guard ProcessInfo.processInfo.environment["STACKJOURNAL_TEST_POSTGRES_RESTART"] == "1" else {
        print("skipped: \(name): set STACKJOURNAL_TEST_POSTGRES_RESTART=1 to let it restart the "
          + "server of scripts/postgres.sh")
        throw XCTSkip("STACKJOURNAL_TEST_POSTGRES_RESTART is not 1")
      }
      let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/postgres.sh").path
      let journal = try PostgresJournal(
        url: url, options: .init(snapshotInterval: 10, operationTimeout: .seconds(60)))
      let empty = EncodedState(json: Data("{}".utf8), stacks: [])
      _ = try journal.createSession("writer", initial: empty, version: 1)

      let restart = Process()
      restart.executableURL = URL(fileURLWithPath: "/bin/bash")
      restart.arguments = [script, "restart"]
      var acknowledged: [Int64] = []
      var head: Int64 = 0
      var lost: [StorageError] = []
      var recoveredAfterLoss = 0
      let started = Date()
      while Date().timeIntervalSince(started) < 60 {
        if acknowledged.count == 200 { try restart.run() }
        if restart.processIdentifier != 0, !restart.isRunning, acknowledged.count > 400,
          !lost.isEmpty
        {
          break
        }
        do {
          let sequence = try journal.append(
            session: "writer", expectedSequence: head,
            JournalEntryDraft(
              type: "tick", version: 1, payload: Data("\(head + 1)".utf8), state: empty))
          XCTAssertEqual(sequence, head + 1)
          acknowledged.append(sequence)
          head = sequence
          if lost.count > recoveredAfterLoss { recoveredAfterLoss = lost.count }
        } catch let error as StorageError where error.code == .connectionLost {
          lost.append(error)
          // The outcome of the failed append is unknown: read the head, which connects again.
          head = try journal.headSequence(session: "writer")
        }
      }
      restart.waitUntilExit()
      XCTAssertEqual(restart.terminationStatus, 0)
      XCTAssertFalse(lost.isEmpty, "the restart hit a call in flight")
      XCTAssertEqual(recoveredAfterLoss, lost.count, "appends went on after each loss")
      for error in lost {
        XCTAssertTrue(error.message.contains("broke") || error.message.contains("shutting down"),
          error.message)
        XCTAssertFalse(error.message.contains("\n"))
      }
      var recorded: [Int64] = []
      try journal.entries(session: "writer") {
        recorded.append($0.sequence)
        XCTAssertEqual(String(decoding: $0.payload, as: UTF8.self), "\($0.sequence)")
        return true
      }
      XCTAssertEqual(recorded, Array(1...head), "no gap")
      XCTAssertTrue(Set(recorded).isSuperset(of: acknowledged), "nothing acknowledged is lost")
      print("restart: \(acknowledged.count) acknowledged appends, \(lost.count) lost call(s): "
        + "\(lost.first?.message ?? "")")
    }
  }
#endif
