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
    func testAServerRestartUnderAWriterLosesNothingAcknowledged() async throws {
      let script = try restartScript()
      let logs = CapturedLogs()
      let journal = try await PostgresJournal(
        url: url, options: .init(snapshotInterval: 10, operationTimeout: .seconds(10)),
        logger: logs.logger(level: .info))
      let empty = EncodedState(json: Data("{}".utf8), stacks: [])
      _ = try await journal.createSession("writer", initial: empty, version: 1)

      // A restart between two calls is survived without an error (the pool replaces the broken
      // idle connection); the server is restarted again, up to five times, until one restart
      // hits a call in flight.
      var restarts: [BackgroundCommand] = []
      // Whatever happens below, the restarts are over before the next test runs (and, when the
      // test ends normally, the server answers again).
      defer {
        for restart in restarts { _ = restart.wait() }
      }
      var acknowledged: [Int64] = []
      var head: Int64 = 0
      var lost: [StorageError] = []
      var appendsSinceTheLastRestartOrLoss = 0
      let started = Date()
      while Date().timeIntervalSince(started) < 120 {
        let restartRunning = restarts.last.map { !$0.isFinished } ?? false
        if !restartRunning, appendsSinceTheLastRestartOrLoss >= 200 {
          if !lost.isEmpty || restarts.count == 5 { break }
          restarts.append(try BackgroundCommand(["/bin/bash", script, "restart"]))
          appendsSinceTheLastRestartOrLoss = 0
        }
        do {
          let sequence = try await journal.append(
            session: "writer", expectedSequence: head,
            JournalEntryDraft(
              type: "tick", version: 1, payload: Data("\(head + 1)".utf8), state: empty))
          XCTAssertEqual(sequence, head + 1)
          acknowledged.append(sequence)
          head = sequence
          appendsSinceTheLastRestartOrLoss += 1
        } catch let error as StorageError where Self.serverUnavailable.contains(error.code) {
          // The server went away under the call (connectionLost) or is not accepting
          // connections yet (connectionRefused). The outcome of the failed append is unknown:
          // read the head once the server answers again.
          lost.append(error)
          appendsSinceTheLastRestartOrLoss = 0
          head = try await readHeadOnceTheServerAnswers(journal, session: "writer")
        }
      }
      XCTAssertFalse(restarts.isEmpty, "the server was restarted")
      for restart in restarts {
        XCTAssertEqual(restart.wait(), 0, "scripts/postgres.sh restart succeeded")
      }
      await waitUntilTheServerAnswers(journal)
      XCTAssertGreaterThanOrEqual(
        appendsSinceTheLastRestartOrLoss, 200, "appends went on after the restarts")
      XCTAssertFalse(lost.isEmpty, "a restart hit a call in flight")
      // Each loss was logged as a warning, and the server's return as a notice.
      let warnings = logs.records.filter { $0.level == .warning && $0.metadata["journal"] != nil }
      XCTAssertFalse(warnings.isEmpty, "\(logs.records)")
      XCTAssertTrue(
        warnings.allSatisfy { Self.serverUnavailable.map { "\($0)" }.contains($0.metadata["error.code"] ?? "") },
        "\(warnings)")
      XCTAssertEqual(
        logs.records("PostgreSQL answers again").count, warnings.count, "\(logs.records)")
      for error in lost {
        XCTAssertTrue(
          error.message.contains("broke") || error.message.contains("shutting down")
            || error.message.contains("Cannot connect") || error.message.contains("gave no result"),
          error.message)
        XCTAssertFalse(error.description.contains("\n"), error.description)
        XCTAssertFalse(error.description.contains("Generic description"), error.description)
      }
      var recorded: [Int64] = []
      try await journal.entries(session: "writer") {
        recorded.append($0.sequence)
        XCTAssertEqual(String(decoding: $0.payload, as: UTF8.self), "\($0.sequence)")
        return true
      }
      XCTAssertEqual(recorded, Array(1...head), "no gap")
      XCTAssertTrue(Set(recorded).isSuperset(of: acknowledged), "nothing acknowledged is lost")
      print("restart: \(restarts.count) restart(s), \(acknowledged.count) acknowledged appends, "
        + "\(lost.count) failed call(s): "
        + "\(lost.first?.description ?? "")")
    }

    /// What a call in flight during a restart meets: the connection broke (connectionLost), no
    /// connection could be made yet (connectionRefused), or no answer came before the
    /// operation timeout (timedOut: a query whose connection died without the client seeing it).
    private func waitUntilTheServerAnswers(_ journal: PostgresJournal) async {
      _ = try? await readHeadOnceTheServerAnswers(journal, session: "writer")
    }
  }

#endif
