import Foundation
import Testing

/// The PostgreSQL server the tests may use (`STACKJOURNAL_TEST_POSTGRES_URL`, set by
/// `scripts/postgres.sh start` and by CI), or `nil`.
private let postgresURL: String? = {
  guard let url = ProcessInfo.processInfo.environment["STACKJOURNAL_TEST_POSTGRES_URL"],
    !url.isEmpty
  else { return nil }
  return url
}()

/// The server's URL with a schema of its own, so each test starts from an empty journal.
private func freshDatabase() throws -> String {
  let url = try #require(postgresURL)
  let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
  return url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"
}

/// A navigation through the wizard, as the client sends it.
private let script = [
  Actions.start, Actions.name(0, "Ann"), Actions.nameNext(0), Actions.plan(1, "team"),
  Actions.planNext(1), Actions.cancel, Actions.start, Actions.name(3, "Bo"),
  Actions.nameNext(3), Actions.plan(4, "solo"),
]

/// Sends an action, retrying once on the 409 an instance answers when its copy of the session is
/// behind the journal (the retry reopens the session from the journal).
private func sendRetrying(
  _ service: ServiceProcess, _ session: String, _ action: String
) async throws -> (reply: ServiceProcess.Reply, conflicts: Int) {
  let first = try await service.request("POST", "/sessions/\(session)/actions", body: action)
  guard first.status == 409 else { return (first, 0) }
  #expect(first.errorCode == "sequenceConflict", "\(first.text)")
  return (try await service.request("POST", "/sessions/\(session)/actions", body: action), 1)
}

/// Why the suite does not run here, or `nil` when it does: it needs a build with the
/// `PostgreSQL` trait (a service that takes postgres:// URLs) and a server.
private let skipReason: String? = {
  #if PostgreSQL
    guard postgresURL == nil else { return nil }
    return """
      STACKJOURNAL_TEST_POSTGRES_URL is not set; start a server with \
      `export STACKJOURNAL_TEST_POSTGRES_URL=$(scripts/postgres.sh start)`
      """
  #else
    return "built without PostgreSQL support; run `swift test --traits PostgreSQL` with "
      + "STACKJOURNAL_TEST_POSTGRES_URL set (`scripts/postgres.sh start`)"
  #endif
}()

@Suite(
  "navigation-service instances sharing one PostgreSQL database", .serialized,
  .enabled(if: skipReason == nil, Comment(rawValue: skipReason ?? "")))
struct PostgresInstancesTests {
  @Test("a client alternating between two instances gets the stacks one instance gives")
  func alternatingClient() async throws {
    // The reference: one instance, on an SQLite file.
    let folder = try TemporaryFolder()
    let single = try ServiceProcess(database: folder.database)
    _ = try await single.request("POST", "/sessions", body: #"{"id": "walk"}"#)
    var expected: [ServiceProcess.Reply] = []
    for action in script { expected.append(try await single.send("walk", action)) }
    #expect(single.terminate() == 0)

    let database = try freshDatabase()
    let instances = [
      try ServiceProcess(database: database), try ServiceProcess(database: database),
    ]
    let created = try await instances[1].request("POST", "/sessions", body: #"{"id": "walk"}"#)
    #expect(created.status == 201, "\(created.text)")
    var conflicts = 0
    for (index, action) in script.enumerated() {
      let (reply, conflicted) = try await sendRetrying(instances[index % 2], "walk", action)
      conflicts += conflicted
      #expect(reply.status == 200, "\(action) -> \(reply.status) \(reply.text)")
      #expect(reply.sequence == expected[index].sequence)
      #expect(
        NSDictionary(dictionary: reply.stack) == NSDictionary(dictionary: expected[index].stack),
        "after \(action): \(reply.text) vs \(expected[index].text)")
    }
    // Each instance read the other's writes: from the second action on, every action found the
    // instance's copy behind (a 409, retried) or reopened the session first.
    #expect(conflicts > 0)
    // Both instances, and a history read, agree with the reference.
    for instance in instances {
      let stack = try await instance.request("GET", "/sessions/walk/stack")
      #expect(stack.sequence == script.count)
      #expect(
        NSDictionary(dictionary: stack.stack)
          == NSDictionary(dictionary: expected[script.count - 1].stack))
    }
    let atThree = try await instances[0].request("GET", "/sessions/walk/stack?at=3")
    #expect(NSDictionary(dictionary: atThree.stack) == NSDictionary(dictionary: expected[2].stack))
    for instance in instances { #expect(instance.terminate() == 0) }
  }

  @Test("one session, concurrent reads and writes through one instance: no 409, no backward read")
  func sameSessionInOrder() async throws {
    let service = try ServiceProcess(database: try freshDatabase())
    let created = try await service.request("POST", "/sessions", body: #"{"id": "busy"}"#)
    #expect(created.status == 201, "\(created.text)")
    let tally = try await drive(service, session: "busy", clients: 12, readers: 12, rounds: 40)
    #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
    #expect(tally.conflicts == 0)
    #expect(tally.rehydrated == 0)
    #expect(tally.backward.isEmpty, "\(tally.backward.prefix(5))")
    let final = try await service.request("GET", "/sessions/busy/stack")
    #expect(final.sequence == tally.acknowledged)
    #expect(service.terminate() == 0)
  }

  @Test(
    "an idempotent retry across a restart of PostgreSQL gets the first result, never a duplicate",
    .enabled(
      if: ProcessInfo.processInfo.environment["STACKJOURNAL_TEST_POSTGRES_RESTART"] == "1",
      Comment(
        rawValue: "restarts the server: set STACKJOURNAL_TEST_POSTGRES_RESTART=1 (and "
          + "STACKJOURNAL_PG_STATE as for `scripts/postgres.sh start`)")))
  func idempotentRetryAcrossRestart() async throws {
    let database = try freshDatabase()
    var service = try ServiceProcess(database: database)
    #expect(try await service.request("POST", "/sessions", body: #"{"id": "pk"}"#).status == 201)
    let first = try await sendKeyed(service, "pk", Actions.start, key: "pg-start")
    #expect(first.status == 200)
    #expect(first.sequence == 1)

    // The server restarts at once (no checkpoint, as after a crash) under the running service.
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/postgres.sh")
    #expect(runDetaching("timeout 60 '\(script.path)' restart") == 0, "the server restarted")

    // The retry: while the connections come back it may get a 5xx; once it gets through, it is
    // the first result, never a 409 or a second append.
    var retried: ServiceProcess.Reply?
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      let reply = try await sendKeyed(service, "pk", Actions.start, key: "pg-start")
      if reply.status == 200 {
        retried = reply
        break
      }
      #expect(reply.status >= 500, "\(reply.status) \(reply.text)")
      try await Task.sleep(for: .milliseconds(200))
    }
    #expect(retried?.sequence == 1, "\(retried?.text ?? "no answer")")
    #expect(retried?.header("idempotent-replayed") == "true")
    #expect(NSDictionary(dictionary: retried?.stack ?? [:]) == NSDictionary(dictionary: first.stack))

    // And across a restart of the service too.
    #expect(service.terminate() == 0)
    service = try ServiceProcess(database: database)
    let again = try await sendKeyed(service, "pk", Actions.start, key: "pg-start")
    #expect(again.sequence == 1)
    #expect(again.header("idempotent-replayed") == "true")
    #expect(try await sendKeyed(service, "pk", Actions.cancel, key: "pg-cancel").sequence == 2)
    #expect(try await sendKeyed(service, "pk", Actions.cancel, key: "pg-cancel").sequence == 2)
    #expect(try await service.request("GET", "/sessions/pk/stack").sequence == 2)
    #expect(service.terminate() == 0)
  }

  @Test("racing writes through two instances: one succeeds, one gets a 409 that a retry clears")
  func racingWrites() async throws {
    let database = try freshDatabase()
    let first = try ServiceProcess(database: database)
    let second = try ServiceProcess(database: database)
    _ = try await first.request("POST", "/sessions", body: #"{"id": "race"}"#)
    var expectedSequence = 0
    for round in 0..<10 {
      // Both instances hold the session at the same sequence.
      #expect(try await first.request("GET", "/sessions/race/stack").sequence == expectedSequence)
      #expect(try await second.request("GET", "/sessions/race/stack").sequence == expectedSequence)
      let action = round.isMultiple(of: 2) ? Actions.start : Actions.cancel
      async let a = first.request("POST", "/sessions/race/actions", body: action)
      async let b = second.request("POST", "/sessions/race/actions", body: action)
      let replies = try await [a, b]
      let statuses = replies.map(\.status).sorted()
      #expect(statuses == [200, 409], "\(replies.map(\.text))")
      let loser = replies[0].status == 409 ? first : second
      if let conflict = replies.first(where: { $0.status == 409 }) {
        #expect(conflict.errorCode == "sequenceConflict")
        #expect(conflict.retryAfter == "0")
      }
      expectedSequence += 1
      // The retry lands after the winner's action.
      let next = round.isMultiple(of: 2) ? Actions.cancel : Actions.start
      let retried = try await loser.send("race", next)
      expectedSequence += 1
      #expect(retried.sequence == expectedSequence)
    }
    // No gaps, no duplicates: the head is the number of acknowledged actions.
    #expect(try await first.request("GET", "/sessions/race/stack").sequence == 20)
    #expect(first.terminate() == 0)
    #expect(second.terminate() == 0)
  }
}
