import Foundation
import Testing

@Suite("an action for an element not in the stack is the client's error")
struct MissingElementTests {
  @Test("an action for an element not in the stack: 422 that says so, nothing journaled, one log line")
  func actionForMissingElement() async throws {
    let folder = try TemporaryFolder()
    let log = folder.url.appendingPathComponent("service.log")
    let service = try ServiceProcess(database: folder.database, standardError: log)
    _ = try await service.request("POST", "/sessions", body: #"{"id": "s"}"#)
    try await service.send("s", Actions.start)
    try await service.send("s", Actions.name(0, "Ann"))
    try await service.send("s", Actions.nameNext(0))  // [0: name, 1: plan], sequence 3
    let before = try String(contentsOf: log, encoding: .utf8)

    let refused: [(String, String)] = [
      (#"{"path":{"_0":{"popFrom":{"id":77}}}}"#, "unknownElement"),
      (Actions.name(5, "Bo"), "unknownElement"),
      (Actions.plan(0, "team"), "wrongStep"),
      (Actions.submit(1), "wrongStep"),
      (
        #"{"path":{"_0":{"push":{"id":1,"state":{"name":{"_0":{"name":"X"}}}}}}}"#,
        "pushRefused"
      ),
      (
        #"{"path":{"_0":{"push":{"id":9,"state":{"name":{"_0":{"name":"X"}}}}}}}"#,
        "pushRefused"
      ),
    ]
    for (action, code) in refused {
      let reply = try await service.request("POST", "/sessions/s/actions", body: action)
      #expect(reply.status == 422, "\(action) -> \(reply.status) \(reply.text)")
      #expect(reply.errorCode == code, "\(action) -> \(reply.text)")
      #expect(reply.contentType?.hasPrefix("application/json") == true)
    }
    // After cancel, id 0 is gone: its actions are refused too.
    try await service.send("s", Actions.cancel)
    let afterCancel = try await service.request(
      "POST", "/sessions/s/actions", body: Actions.nameNext(0))
    #expect(afterCancel.status == 422, "\(afterCancel.text)")
    #expect(afterCancel.errorCode == "unknownElement")

    // One log line per request (the refused ones and the cancel), not a page of warnings: a
    // refusal's line carries its status and code.
    let after = try String(contentsOf: log, encoding: .utf8)
    let added = after.dropFirst(before.count)
    let lines = try logLines(String(added))
    #expect(lines.count == refused.count + 2, "\(added)")
    #expect(added.split(separator: "\n").allSatisfy { $0.utf8.count < 400 }, "\(added)")
    let codes = lines.compactMap { $0["code"] as? String }
    #expect(codes == refused.map(\.1) + ["unknownElement"], "\(added)")
    #expect(lines.allSatisfy { $0["message"] as? String == "request" }, "\(added)")
    // Nothing was journaled: the head is the cancel, sequence 4, and nothing is after it.
    let stack = try await service.request("GET", "/sessions/s/stack")
    #expect(stack.sequence == 4, "\(stack.text)")
    let past = try await service.request("GET", "/sessions/s/stack?at=5")
    #expect(past.status == 422)
    #expect(service.terminate() == 0)
  }

  @Test("an element another process pushed is not refused by a stale instance: 409, then the retry lands")
  func elementPushedElsewhere() async throws {
    let folder = try TemporaryFolder()
    let first = try ServiceProcess(database: folder.database)
    let second = try ServiceProcess(database: folder.database)
    _ = try await first.request("POST", "/sessions", body: #"{"id": "shared"}"#)
    // The second instance holds the session at sequence 0, before element 0 exists.
    #expect(try await second.request("GET", "/sessions/shared/stack").sequence == 0)
    try await first.send("shared", Actions.start)
    let stale = try await second.request(
      "POST", "/sessions/shared/actions", body: Actions.name(0, "Ann"))
    #expect(stale.status == 409, "\(stale.text)")
    #expect(stale.errorCode == "sequenceConflict")
    let retried = try await second.send("shared", Actions.name(0, "Ann"))
    #expect(retried.sequence == 2)
    #expect(first.terminate() == 0)
    #expect(second.terminate() == 0)
  }
}
