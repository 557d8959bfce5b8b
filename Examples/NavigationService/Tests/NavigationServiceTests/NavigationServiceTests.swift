import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("navigation-service over HTTP", .serialized)
struct NavigationServiceTests {
  @Test("a scripted navigation survives kill -9: every acknowledged action is back, IDs go on")
  func killAndRestart() async throws {
    let folder = try TemporaryFolder()
    var service = try ServiceProcess(database: folder.database)
    let created = try await service.request("POST", "/sessions", body: #"{"id": "alice"}"#)
    #expect(created.status == 201, "\(created.text)")
    #expect(created.sequence == 0)
    #expect(created.nextID == 0)

    var sequences: [Int] = []
    for action in [
      Actions.start, Actions.name(0, "Ann"), Actions.nameNext(0), Actions.plan(1, "team"),
      Actions.planNext(1),
    ] {
      sequences.append(try await service.send("alice", action).sequence ?? -1)
    }
    #expect(sequences == [1, 2, 3, 4, 5])
    let before = try await service.request("GET", "/sessions/alice/stack")
    #expect(before.ids == [0, 1, 2])
    #expect(before.cases == ["name", "plan", "confirm"])
    #expect(before.nextID == 3)

    service.kill9()
    service = try ServiceProcess(database: folder.database)
    let after = try await service.request("GET", "/sessions/alice/stack")
    #expect(after.status == 200)
    #expect(after.sequence == 5)
    #expect(after.ids == [0, 1, 2])
    #expect(after.cases == ["name", "plan", "confirm"])
    #expect(after.nextID == 3)
    #expect(after.json["rehydrated"] as? Bool == true)
    #expect(
      NSDictionary(dictionary: after.stack) == NSDictionary(dictionary: before.stack),
      "the restored stack differs: \(after.text) vs \(before.text)")

    // The next push gets the next generation, never one handed out before the crash.
    try await service.send("alice", Actions.cancel)
    let pushed = try await service.send("alice", Actions.start)
    #expect(pushed.sequence == 7)
    #expect(pushed.ids == [3])
    #expect(pushed.nextID == 4)

    // History: the stack at a sequence, and at a time.
    let atTwo = try await service.request("GET", "/sessions/alice/stack?at=2")
    #expect(atTwo.status == 200)
    #expect(atTwo.ids == [0])
    let firstState = (atTwo.stack["states"] as? [[String: Any]])?.first
    #expect(firstState?["name"] as? String == "Ann")
    let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(5))
    let atNow = try await service.request("GET", "/sessions/alice/stack?time=\(now)")
    #expect(atNow.status == 200)
    #expect(atNow.sequence == 7)
    #expect(atNow.ids == [3])
    #expect(service.terminate() == 0)
  }

  @Test("fork: a new session from another's state at a sequence, the original untouched")
  func fork() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    _ = try await service.request("POST", "/sessions", body: #"{"id": "main"}"#)
    for action in [Actions.start, Actions.name(0, "Bo"), Actions.nameNext(0)] {
      try await service.send("main", action)
    }
    let forked = try await service.request(
      "POST", "/sessions/main/fork", body: #"{"at": 2, "into": "what-if"}"#)
    #expect(forked.status == 201, "\(forked.text)")
    #expect(forked.json["forkedAt"] as? Int == 2)
    #expect(forked.ids == [0])
    #expect(forked.nextID == 1)
    let pushed = try await service.send("what-if", Actions.nameNext(0))
    #expect(pushed.ids == [0, 1])
    let original = try await service.request("GET", "/sessions/main/stack")
    #expect(original.sequence == 3)
    #expect(original.ids == [0, 1])
    let again = try await service.request(
      "POST", "/sessions/main/fork", body: #"{"at": 2, "into": "what-if"}"#)
    #expect(again.status == 409)
    #expect(again.errorCode == "sessionExists")
    let past = try await service.request("POST", "/sessions/main/fork", body: #"{"at": 99}"#)
    #expect(past.status == 422)
    #expect(past.errorCode == "sequenceOutOfRange")
    #expect(service.terminate() == 0)
  }

  @Test("50 concurrent clients on different sessions: no errors, every stack right")
  func concurrentClients() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    let failures = try await withThrowingTaskGroup(of: [String].self) { group in
      for client in 0..<50 {
        group.addTask {
          var failures: [String] = []
          let id = "client-\(client)"
          let created = try await service.request("POST", "/sessions", body: #"{"id": "\#(id)"}"#)
          if created.status != 201 { failures.append("\(id) create: \(created.status)") }
          let script = [
            Actions.start, Actions.name(0, "n\(client)"), Actions.nameNext(0),
            Actions.plan(1, "free"), Actions.planNext(1), Actions.submit(2), Actions.start,
          ]
          for (index, action) in script.enumerated() {
            let reply = try await service.request("POST", "/sessions/\(id)/actions", body: action)
            if reply.status != 200 || reply.sequence != index + 1 {
              failures.append("\(id) action \(index): \(reply.status) \(reply.text)")
            }
          }
          let final = try await service.request("GET", "/sessions/\(id)/stack")
          if final.ids != [3] || final.nextID != 4 || final.stack["submitted"] as? Int != 1 {
            failures.append("\(id) final stack: \(final.text)")
          }
          return failures
        }
      }
      var all: [String] = []
      for try await failures in group { all += failures }
      return all
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
    #expect(service.terminate() == 0)
  }

  @Test("bad requests get a 4xx with a JSON error, never the input as markup")
  func badRequests() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    _ = try await service.request("POST", "/sessions", body: #"{"id": "s"}"#)
    try await service.send("s", Actions.start)

    func expectError(
      _ reply: ServiceProcess.Reply, _ status: Int, _ code: String,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
      #expect(reply.errorCode == code, "\(reply.text)", sourceLocation: sourceLocation)
      #expect(
        reply.contentType?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
      #expect(!reply.text.contains("<"), "\(reply.text)", sourceLocation: sourceLocation)
    }

    expectError(try await service.request("GET", "/sessions/nobody/stack"), 404, "unknownSession")
    expectError(
      try await service.request("POST", "/sessions/nobody/actions", body: Actions.start), 404,
      "unknownSession")
    expectError(
      try await service.request(
        "POST", "/sessions/%3Cscript%3Ealert(1)%3C%2Fscript%3E/actions", body: Actions.start),
      404, "unknownSession")
    expectError(
      try await service.request("POST", "/sessions/s/actions", body: #"{"<b>launch</b>": {}}"#),
      400, "undecodableAction")
    expectError(
      try await service.request(
        "POST", "/sessions/s/actions", body: #"{"path": {"_0": {"<img src=x>": {"id": 0}}}}"#),
      400, "undecodableAction")
    expectError(
      try await service.request("POST", "/sessions/s/actions", body: "<html>not json"), 400,
      "undecodableAction")
    expectError(try await service.request("GET", "/sessions/s/stack?at=-1"), 400, "badSequence")
    expectError(try await service.request("GET", "/sessions/s/stack?at=abc"), 400, "badSequence")
    expectError(
      try await service.request("GET", "/sessions/s/stack?at=2"), 422, "sequenceOutOfRange")
    expectError(
      try await service.request("GET", "/sessions/s/stack?time=yesterday"), 400, "badTime")
    expectError(
      try await service.request("GET", "/sessions/s/stack?time=1999-01-01T00:00:00Z"), 422,
      "sequenceOutOfRange")
    expectError(
      try await service.request(
        "POST", "/sessions/s/actions", data: Data(repeating: UInt8(ascii: " "), count: 200_000)),
      413, "bodyTooLarge")
    expectError(try await service.request("GET", "/<b>nowhere</b>"), 404, "notFound")
    expectError(
      try await service.request("POST", "/sessions", body: #"{"id": "s"}"#), 409, "sessionExists")
    expectError(
      try await service.request("POST", "/sessions", body: #"{"id": ""}"#), 400, "invalidSessionID")

    // None of it changed the session.
    let stack = try await service.request("GET", "/sessions/s/stack")
    #expect(stack.sequence == 1)
    #expect(stack.ids == [0])
    #expect(service.terminate() == 0)
  }

  @Test("an idle session is evicted and rehydrated from the journal on the next request")
  func eviction() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(
      database: folder.database, extraArguments: ["--idle-seconds", "0.3"])
    _ = try await service.request("POST", "/sessions", body: #"{"id": "idle"}"#)
    try await service.send("idle", Actions.start)
    try await Task.sleep(for: .seconds(1.5))
    let ready = try await service.request("GET", "/health/ready")
    #expect(ready.status == 200)
    #expect((ready.json["evictions"] as? Int ?? 0) >= 1, "\(ready.text)")
    #expect(ready.json["cachedSessions"] as? Int == 0, "\(ready.text)")
    let next = try await service.send("idle", Actions.name(0, "Cy"))
    #expect(next.json["rehydrated"] as? Bool == true)
    #expect(next.sequence == 2)
    #expect(next.ids == [0])
    #expect(service.terminate() == 0)
  }

  @Test("two processes on one file: a write from a stale store is a retryable 409")
  func conflictBetweenInstances() async throws {
    let folder = try TemporaryFolder()
    let first = try ServiceProcess(database: folder.database)
    let second = try ServiceProcess(database: folder.database)
    _ = try await first.request("POST", "/sessions", body: #"{"id": "shared"}"#)
    // Both instances hold the session in memory at sequence 0.
    #expect(try await second.request("GET", "/sessions/shared/stack").sequence == 0)
    try await first.send("shared", Actions.start)
    let conflict = try await second.request(
      "POST", "/sessions/shared/actions", body: Actions.start)
    #expect(conflict.status == 409, "\(conflict.text)")
    #expect(conflict.errorCode == "sequenceConflict")
    #expect(conflict.retryAfter == "0")
    #expect((conflict.json["error"] as? [String: Any])?["retryable"] as? Bool == true)
    // The retry rehydrates from the journal and lands after the other instance's action.
    let retried = try await second.send("shared", Actions.start)
    #expect(retried.sequence == 2)
    #expect(retried.ids == [0, 1])
    #expect(first.terminate() == 0)
    #expect(second.terminate() == 0)
  }

  @Test("SIGTERM while clients write: exit 0, and every acknowledged action is in the journal")
  func shutdownUnderLoad() async throws {
    let folder = try TemporaryFolder()
    var service = try ServiceProcess(database: folder.database)
    let clients = 10
    for client in 0..<clients {
      _ = try await service.request("POST", "/sessions", body: #"{"id": "w\#(client)"}"#)
    }
    let writer = service
    let acknowledged = await withTaskGroup(of: (Int, Int).self) { group in
      for client in 0..<clients {
        group.addTask {
          var last = 0
          // Push and pop until the service goes away; count what it acknowledged.
          for index in 0..<10_000 {
            let action = index % 2 == 0 ? Actions.start : Actions.cancel
            guard
              let reply = try? await writer.request(
                "POST", "/sessions/w\(client)/actions", body: action),
              reply.status == 200, let sequence = reply.sequence
            else { break }
            last = sequence
          }
          return (client, last)
        }
      }
      try? await Task.sleep(for: .milliseconds(500))
      #expect(writer.terminate() == 0)
      var result: [Int: Int] = [:]
      for await (client, last) in group { result[client] = last }
      return result
    }
    #expect(acknowledged.values.contains { $0 > 0 }, "no action was acknowledged before SIGTERM")
    service = try ServiceProcess(database: folder.database)
    for client in 0..<clients {
      let stack = try await service.request("GET", "/sessions/w\(client)/stack")
      let head = stack.sequence ?? -1
      #expect(head >= acknowledged[client] ?? 0, "w\(client): head \(head)")
      // Pushes are odd sequences: ID n was handed out at sequence 2n + 1.
      #expect(stack.nextID == (head + 1) / 2, "w\(client): \(stack.text)")
    }
    #expect(service.terminate() == 0)
  }

  @Test("health endpoints, and SIGTERM stops the service cleanly")
  func healthAndShutdown() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    let live = try await service.request("GET", "/health/live")
    #expect(live.status == 200)
    #expect(live.json["status"] as? String == "live")
    let ready = try await service.request("GET", "/health/ready")
    #expect(ready.status == 200)
    #expect(ready.json["status"] as? String == "ready")
    #expect(service.terminate() == 0)
  }
}
