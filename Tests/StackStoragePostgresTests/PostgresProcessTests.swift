#if PostgreSQL
  import Foundation
  #if canImport(Glibc)
    import Glibc
  #endif
  import StackJournalDemo
  import StackJournalTestSupport
  import StackRestoration
  import StackStorage
  import XCTest

  @testable import StackJournalCore
@testable import StackStoragePostgres

  /// Several OS processes (`stackjournal-recorder`) writing into one PostgreSQL database at
  /// once: each recording its own session, two racing on one; killed with SIGKILL, and with the
  /// server restarted at once under them. Afterwards every acknowledged action is there, with
  /// no gap and no duplicate, and every session verifies.
  final class PostgresProcessTests: PostgresTestCase {
    private var directory: TemporaryDirectory!
    private var recorder: String!

    override func setUpWithError() throws {
      try super.setUpWithError()
      directory = try TemporaryDirectory(prefix: "PostgresProcessTests")
      recorder = try builtExecutable("stackjournal-recorder").path
    }

    override func tearDown() {
      directory?.remove()
      super.tearDown()
    }

    /// What a process wrote to a file ("" when there is none).
    private func text(_ file: String) -> String {
      (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    /// The numbers of the output file's lines that start with `prefix`.
    private func numbers(_ file: String, _ prefix: String) -> [Int64] {
      text(file).split(separator: "\n").compactMap { line in
        line.hasPrefix(prefix + " ") ? Int64(line.dropFirst(prefix.count + 1)) : nil
      }
    }

    /// Waits until every file has at least `count` acknowledged actions (at most 60 s).
    private func waitForAcknowledged(_ files: [String], count: Int) {
      let deadline = Date().addingTimeInterval(60)
      while Date() < deadline, files.contains(where: { numbers($0, "acknowledged").count < count })
      {
        usleep(20_000)
      }
    }

    /// Checks a recorded session: its journal holds 1…head with no gap or duplicate, every
    /// acknowledged sequence is at or below the head, it verifies (``verifyStorage``: the deltas
    /// walked from the oldest snapshot agree with every later snapshot and with the head's stack
    /// rows), and the stacks restored at every sequence 0…head (`stacks(session:at:)`, which
    /// starts from the nearest snapshot) equal the stacks rebuilt by applying every delta from
    /// sequence 0, the head's stack rows included. With `replay`, the demo reducer replayed over
    /// the session reproduces the recorded stacks after every entry.
    private func assertSound(
      _ session: SessionID, in journal: PostgresJournal, acknowledged: Int64,
      replay: Bool = true, _ message: String
    ) async throws {
      let head = try await journal.headSequence(session: session)
      XCTAssertGreaterThanOrEqual(head, acknowledged, "\(message): an acknowledged action is lost")
      let shape = try await execute([
        "SELECT count(*)::text || ' ' || count(DISTINCT sequence)::text || ' ' || "
          + "coalesce(min(sequence), 0)::text || ' ' || coalesce(max(sequence), 0)::text "
          + "FROM \(location.schema).journal WHERE session = '\(session.rawValue)'"
      ])
      XCTAssertEqual(shape, [["\(head) \(head) \(head > 0 ? 1 : 0) \(head)"]], message)
      let storage = try await journal.verifyStorage(session: session, maxProblemsPerSession: 5)
      XCTAssertTrue(storage.isClean, "\(message): \(storage.sessions.flatMap(\.problems))")

      let snapshotResult = try await journal.snapshot(session: session, atOrBelow: 0)
      var rebuilt = try XCTUnwrap(
        snapshotResult, "\(message): snapshot 0"
      ).stacks
      let stacksResult = try await journal.stacks(session: session, at: 0)
      XCTAssertEqual(stacksResult, rebuilt, "\(message) at 0")
      var sequences: [Int64] = []
      try await journal.entries(session: session, after: 0, through: head) { entry in
        sequences.append(entry.sequence)
        try entry.delta.apply(to: &rebuilt)
        let restored = try await journal.stacks(session: session, at: entry.sequence)
        XCTAssertEqual(restored, rebuilt, "\(message): the stacks restored at \(entry.sequence)")
        return restored == rebuilt
      }
      XCTAssertEqual(sequences, Array((0...head).dropFirst()), "\(message): entries 1…\(head)")
      let headStacksResult = try await journal.headStacks(session: session)
      XCTAssertEqual(headStacksResult, rebuilt, "\(message): head rows")
      if replay {
        let verification = try await Replayer(journal: journal) { RootFeature() }.verify(session: session)
        XCTAssertTrue(verification.isClean, "\(message): \(verification)")
      }
    }

    func testSeveralProcessesRecordAtOnceAndTwoRaceOnOneSession() async throws {
      let journal = try await PostgresJournal(url: url)
      let empty = EncodedState(json: Data("{}".utf8), stacks: [])
      _ = try await journal.createSession("shared", initial: empty, version: 1)
      let recorders = try (1...4).map { number in
        try BackgroundCommand(
          [recorder, url, "recorder-\(number)", "\(number)"],
          output: directory.path("recorder-\(number).out"),
          errors: directory.path("recorder-\(number).err"))
      }
      let racers = try (1...2).map { number in
        try BackgroundCommand(
          [recorder, "--race", url, "shared", "300"], output: directory.path("race-\(number).out"),
          errors: directory.path("race-\(number).err"))
      }
      let racerStatus = racers.map { $0.wait() }
      waitForAcknowledged((1...4).map { directory.path("recorder-\($0).out") }, count: 20)
      recorders.forEach { $0.kill() }
      XCTAssertEqual(
        racerStatus, [0, 0],
        "both racers ran to the end: \((1...2).map { text(directory.path("race-\($0).err")) })")
      XCTAssertEqual(recorders.map { $0.wait() }, [137, 137, 137, 137], "killed by SIGKILL")

      // The race: each sequence was won by exactly one process, and a lost append lost to the
      // other one.
      let won = (1...2).map { Set(numbers(directory.path("race-\($0).out"), "won")) }
      let lost = (1...2).map { numbers(directory.path("race-\($0).out"), "lost") }
      XCTAssertTrue(won[0].isDisjoint(with: won[1]), "no sequence won twice")
      XCTAssertEqual(won[0].union(won[1]), Set(1...300), "every sequence won once")
      XCTAssertTrue(lost[0].allSatisfy(won[1].contains), "racer 1 lost only to racer 2")
      XCTAssertTrue(lost[1].allSatisfy(won[0].contains), "racer 2 lost only to racer 1")
      XCTAssertFalse(won[0].isEmpty || won[1].isEmpty, "both racers wrote")
      print("race: \(won[0].count) + \(won[1].count) won, \(lost[0].count + lost[1].count) lost")
      let headSequenceResult = try await journal.headSequence(session: "shared")
      XCTAssertEqual(headSequenceResult, 300)
      // The racers' entries are not demo actions: no replay.
      try await assertSound(
        "shared", in: journal, acknowledged: 300, replay: false, "the raced session")

      for number in 1...4 {
        let session = SessionID("recorder-\(number)")
        let acknowledged = numbers(directory.path("recorder-\(number).out"), "acknowledged")
        XCTAssertGreaterThanOrEqual(acknowledged.count, 20, "recorder \(number) made progress")
        try await assertSound(
          session, in: journal, acknowledged: acknowledged.max() ?? 0, "recorder \(number)")
      }
      let verifyStorageResult = try await journal.verifyStorage(session: nil, maxProblemsPerSession: 5).isClean
      XCTAssertTrue(verifyStorageResult)
      // A killed recorder's session reopens where it was and records on.
      let store = try await RecordingStore.open(
        session: "recorder-1", journal: journal, initialState: DemoScript.deepLink
      ) { RootFeature() }
      let head = store.sequence
      try await store.send(.pushCounterTapped(count: 1)).finish()
      XCTAssertEqual(store.sequence, head + 1)
      let verifyResult = try await Replayer(journal: journal) { RootFeature() }.verify(session: "recorder-1").isClean
      XCTAssertTrue(
        verifyResult)
    }

    /// Four rounds of three recorders on three sessions, each round killed with SIGKILL at a
    /// random moment after every recorder acknowledged 10 actions. With
    /// `STACKJOURNAL_TEST_POSTGRES_RESTART=1`, round 1 instead restarts the server at once
    /// (`pg_ctl restart -m immediate`) under the recorders first. After every round each session
    /// holds every action acknowledged so far and is sound; each next round's recorders reopen
    /// the sessions where they were and record on, and so does a store after the last round.
    func testKillsAndAnImmediateServerRestartLoseNothingAcknowledged() async throws {
      let restarting = ProcessInfo.processInfo.environment["STACKJOURNAL_TEST_POSTGRES_RESTART"]
      let script = restarting == "1" ? try restartScript() : nil
      if script == nil {
        print(
          "\(name): SIGKILL rounds only; set STACKJOURNAL_TEST_POSTGRES_RESTART=1 for the round "
            + "that restarts the server")
      }
      _ = try await PostgresJournal(url: url)
      var generator = SeededGenerator(seed: 99)
      var acknowledged: [Int64] = [0, 0, 0]
      for round in 0..<4 {
        let files = (0..<3).map { directory.path("round-\(round)-\($0).out") }
        let errors = (0..<3).map { directory.path("round-\(round)-\($0).err") }
        let recorders = try (0..<3).map { number in
          try BackgroundCommand(
            [recorder, url, "killed-\(number)", "\(round * 10 + number + 1)"],
            output: files[number], errors: errors[number])
        }
        waitForAcknowledged(files, count: 10)
        let restarted = round == 1 && script != nil
        if restarted, let script {
          // The server restarts at once (no checkpoint, as after a crash) under the writers:
          // their calls in flight fail and they exit; what they acknowledged must stay.
          let restart = try BackgroundCommand(["/bin/bash", script, "restart"])
          XCTAssertEqual(restart.wait(), 0, "the server restarted")
        } else {
          usleep(UInt32.random(in: 20_000...300_000, using: &generator))
        }
        recorders.forEach { $0.kill() }
        let statuses = recorders.map { $0.wait() }
        for (number, status) in statuses.enumerated() {
          let place = "round \(round), recorder \(number)"
          // Killed (137), or, after the restart, ended by the broken connection (1) with one
          // line that names the server and not the password.
          XCTAssertTrue(
            status == 137 || (restarted && status == 1),
            "\(place): \(status) \(text(errors[number]))")
          if status == 1 {
            let lines = text(errors[number]).split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(place): \(lines)")
            XCTAssertTrue(
              lines.first?.hasPrefix("stackjournal-recorder: ") == true
                && lines.first?.contains("PostgreSQL") == true
                && lines.first?.contains("\(location.host):\(location.port)") == true,
              "\(place): \(lines)")
            if let password = location.password {
              XCTAssertFalse(text(errors[number]).contains(":\(password)@"), place)
            }
          }
          // The recorder reopened the session at its head and recorded on.
          let acknowledgedNow = numbers(files[number], "acknowledged")
          XCTAssertGreaterThanOrEqual(acknowledgedNow.count, 10, "\(place) made progress")
          XCTAssertGreaterThan(acknowledgedNow.first ?? 0, acknowledged[number], "\(place) went on")
          acknowledged[number] = max(acknowledged[number], acknowledgedNow.max() ?? 0)
        }
        let failure = statuses.indices.first { statuses[$0] == 1 }.map { text(errors[$0]) }
        print(
          "kill round \(round)\(restarted ? " (server restarted)" : ""): exit statuses "
            + "\(statuses), acknowledged \(acknowledged)"
            + (failure.map { "; a recorder's last line: \($0)" } ?? ""))
        let journal = try await reopenOnceTheServerAnswers()
        for number in 0..<3 {
          try await assertSound(
            SessionID("killed-\(number)"), in: journal, acknowledged: acknowledged[number],
            "round \(round), recorder \(number)")
        }
      }
      let journal = try await reopenOnceTheServerAnswers()
      for number in 0..<3 {
        let store = try await RecordingStore.open(
          session: SessionID("killed-\(number)"), journal: journal,
          initialState: DemoScript.deepLink
        ) { RootFeature() }
        let head = store.sequence
        XCTAssertGreaterThanOrEqual(head, acknowledged[number])
        try await store.send(.pushCounterTapped(count: 1)).finish()
        XCTAssertEqual(store.sequence, head + 1, "recorder \(number)'s session records on")
      }
    }

    /// Opens the journal, waiting up to 60 s for the server to accept connections again.
    private func reopenOnceTheServerAnswers() async throws -> PostgresJournal {
      let deadline = Date().addingTimeInterval(60)
      while true {
        do {
          return try await PostgresJournal(url: url)
        } catch let error as StorageError where Date() < deadline {
          _ = error
          usleep(200_000)
        }
      }
    }
  }
#endif
