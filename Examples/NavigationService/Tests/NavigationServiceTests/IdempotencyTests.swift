import Foundation
import StackStorage
import Testing

/// Sends an action with an `Idempotency-Key`.
func sendKeyed(
  _ service: ServiceProcess, _ session: String, _ action: String, key: String
) async throws -> ServiceProcess.Reply {
  try await service.request(
    "POST", "/sessions/\(session)/actions", body: action, headers: ["Idempotency-Key": key])
}

@Suite("Idempotency-Key on actions")
struct IdempotencyTests {
  @Test("a retry gets the first result, across a kill -9 and a restart of the service, never a duplicate")
  func retryAcrossRestart() async throws {
    let folder = try TemporaryFolder()
    var service = try ServiceProcess(database: folder.database)
    _ = try await service.request("POST", "/sessions", body: #"{"id": "k"}"#)
    let first = try await sendKeyed(service, "k", Actions.start, key: "start-1")
    #expect(first.status == 200)
    #expect(first.sequence == 1)
    #expect(first.header("idempotent-replayed") == nil)

    // The same key again: the first result, marked as replayed; nothing appended.
    let again = try await sendKeyed(service, "k", Actions.start, key: "start-1")
    #expect(again.status == 200, "\(again.text)")
    #expect(again.sequence == 1)
    #expect(NSDictionary(dictionary: again.stack) == NSDictionary(dictionary: first.stack))
    #expect(again.header("idempotent-replayed") == "true")

    // Later actions do not change what the key answers: its stack is the one after its action.
    let named = try await sendKeyed(service, "k", Actions.name(0, "Ann"), key: "name-1")
    #expect(named.sequence == 2)

    // kill -9, then a new process on the same file: the keys are in the journal's file.
    service.kill9()
    service = try ServiceProcess(database: folder.database)
    let afterRestart = try await sendKeyed(service, "k", Actions.start, key: "start-1")
    #expect(afterRestart.status == 200, "\(afterRestart.text)")
    #expect(afterRestart.sequence == 1)
    #expect(NSDictionary(dictionary: afterRestart.stack) == NSDictionary(dictionary: first.stack))
    #expect(afterRestart.header("idempotent-replayed") == "true")
    #expect(try await sendKeyed(service, "k", Actions.name(0, "Ann"), key: "name-1").sequence == 2)
    #expect(try await service.request("GET", "/sessions/k/stack").sequence == 2)

    // A key is tied to its action; a new key is a new action; no key, no memory.
    let reused = try await sendKeyed(service, "k", Actions.cancel, key: "start-1")
    #expect(reused.status == 422)
    #expect(reused.errorCode == "idempotencyKeyReused")
    #expect(try await sendKeyed(service, "k", Actions.start, key: "start-2").sequence == 3)
    #expect(try await service.send("k", Actions.cancel).sequence == 4)
    #expect(try await service.send("k", Actions.cancel).sequence == 5)
    #expect(try await service.request("GET", "/sessions/k/stack").sequence == 5)
    #expect(service.terminate() == 0)
  }

  @Test("concurrent tries with one key append once")
  func concurrentTries() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    _ = try await service.request("POST", "/sessions", body: #"{"id": "c"}"#)
    let replies = try await withThrowingTaskGroup(of: ServiceProcess.Reply.self) { group in
      for _ in 0..<8 {
        group.addTask { try await sendKeyed(service, "c", Actions.start, key: "once") }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(replies.map(\.status) == Array(repeating: 200, count: 8))
    #expect(Set(replies.compactMap(\.sequence)) == [1])
    #expect(replies.filter { $0.header("idempotent-replayed") == "true" }.count == 7)
    #expect(try await service.request("GET", "/sessions/c/stack").sequence == 1)
    #expect(service.terminate() == 0)
  }

  @Test("a first try that lost to another writer (409) is sent by the retry, once")
  func firstTryLost() async throws {
    let folder = try TemporaryFolder()
    let first = try ServiceProcess(database: folder.database)
    let second = try ServiceProcess(database: folder.database)
    _ = try await first.request("POST", "/sessions", body: #"{"id": "l"}"#)
    #expect(try await second.request("GET", "/sessions/l/stack").sequence == 0)
    try await first.send("l", Actions.start)
    // The second instance's store is behind: its keyed try is a 409 and appends nothing, though
    // the key was recorded for sequence 1 — which holds the other writer's action.
    let lost = try await sendKeyed(second, "l", Actions.cancel, key: "cancel-1")
    #expect(lost.status == 409, "\(lost.text)")
    let retried = try await sendKeyed(second, "l", Actions.cancel, key: "cancel-1")
    #expect(retried.status == 200, "\(retried.text)")
    #expect(retried.sequence == 2)
    #expect(retried.header("idempotent-replayed") == nil)
    let replayed = try await sendKeyed(first, "l", Actions.cancel, key: "cancel-1")
    #expect(replayed.sequence == 2)
    #expect(replayed.header("idempotent-replayed") == "true")
    #expect(try await first.request("GET", "/sessions/l/stack").sequence == 2)
    #expect(first.terminate() == 0)
    #expect(second.terminate() == 0)
  }

  @Test("a key recorded by a try that died before its append: the retry sends the action, once")
  func firstTryDiedBeforeItsAppend() async throws {
    let folder = try TemporaryFolder()
    var service = try ServiceProcess(database: folder.database)
    for id in ["x", "d"] {
      #expect(try await service.request("POST", "/sessions", body: #"{"id": "\#(id)"}"#).status == 201)
    }
    // A keyed action on `x` records its key (for sequence 1, with the action's fingerprint)
    // before its append.
    #expect(try await sendKeyed(service, "x", Actions.start, key: "seen").sequence == 1)
    service.kill9()

    // On `d`, what a process killed between writing that record and appending leaves: the key
    // `lost-1` recorded for sequence 1 with the same action's fingerprint, and no entry 1.
    let journal = try SQLiteJournal(path: folder.database)
    let recorded = try #require(try journal.session("x")?.metadata)
    var metadata = try #require(try JSONSerialization.jsonObject(with: recorded) as? [String: Any])
    var keys = try #require(metadata["keys"] as? [[String: Any]])
    #expect(keys.count == 1 && keys[0]["sequence"] as? Int == 1, "\(keys)")
    keys[0]["key"] = "lost-1"
    metadata["keys"] = keys
    try journal.setMetadata(try JSONSerialization.data(withJSONObject: metadata), session: "d")
    #expect(try journal.headSequence(session: "d") == 0)
    try journal.close()

    // The retry finds the key known and no entry at its sequence: the action is sent now, not
    // answered from the journal.
    service = try ServiceProcess(database: folder.database)
    let retried = try await sendKeyed(service, "d", Actions.start, key: "lost-1")
    #expect(retried.status == 200, "\(retried.text)")
    #expect(retried.sequence == 1)
    #expect(retried.header("idempotent-replayed") == nil)
    // From then on the key's action is in the journal: replayed, never appended again.
    let again = try await sendKeyed(service, "d", Actions.start, key: "lost-1")
    #expect(again.status == 200, "\(again.text)")
    #expect(again.sequence == 1)
    #expect(again.header("idempotent-replayed") == "true")
    #expect(NSDictionary(dictionary: again.stack) == NSDictionary(dictionary: retried.stack))
    #expect(try await service.request("GET", "/sessions/d/stack").sequence == 1)
    #expect(service.terminate() == 0)
  }

  @Test("a key older than the session's last 64 keyed actions is forgotten: its retry is new")
  func oldKeysAreForgotten() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    _ = try await service.request("POST", "/sessions", body: #"{"id": "o"}"#)
    // 65 keyed actions: start, cancel, start, … (sequences 1 to 65).
    for index in 0...64 {
      let action = index.isMultiple(of: 2) ? Actions.start : Actions.cancel
      let reply = try await sendKeyed(service, "o", action, key: "k\(index)")
      #expect(reply.sequence == index + 1, "\(reply.text)")
    }
    // The newest 64 (k1 … k64) are remembered; k0 is not: its retry is a new action.
    let remembered = try await sendKeyed(service, "o", Actions.cancel, key: "k1")
    #expect(remembered.sequence == 2)
    #expect(remembered.header("idempotent-replayed") == "true")
    let forgotten = try await sendKeyed(service, "o", Actions.start, key: "k0")
    #expect(forgotten.status == 200, "\(forgotten.text)")
    #expect(forgotten.sequence == 66)
    #expect(forgotten.header("idempotent-replayed") == nil)
    #expect(try await service.request("GET", "/sessions/o/stack").sequence == 66)
    #expect(service.terminate() == 0)
  }

  @Test("a key outside the rules is a 400; nothing is appended")
  func invalidKey() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    _ = try await service.request("POST", "/sessions", body: #"{"id": "v"}"#)
    for key in ["<script>", "a b", String(repeating: "k", count: 129), "ü"] {
      let reply = try await sendKeyed(service, "v", Actions.start, key: key)
      #expect(reply.status == 400, "\(key): \(reply.text)")
      #expect(reply.errorCode == "invalidIdempotencyKey")
      #expect(!reply.text.contains(key))
    }
    #expect(try await service.request("GET", "/sessions/v/stack").sequence == 0)
    #expect(service.terminate() == 0)
  }
}
