import Foundation
import Testing

/// The JSON objects of a log, one a line; a line that is not one fails the test.
func logLines(_ text: String) throws -> [[String: Any]] {
  try text.split(separator: "\n").map { line in
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    return try #require(object, "not a JSON object: \(line)")
  }
}

/// The lines of a log that carry a request identifier.
private func lines(of requestID: String, in log: [[String: Any]]) -> [[String: Any]] {
  log.filter { $0["hb.request.id"] as? String == requestID }
}

@Suite("structured logs with a request identifier")
struct LoggingTests {
  @Test("a plain X-Request-ID is kept, returned, and on every line of its request")
  func clientRequestID() async throws {
    let folder = try TemporaryFolder()
    let logFile = folder.url.appendingPathComponent("service.log")
    var service = try ServiceProcess(database: folder.database, standardError: logFile)
    let created = try await service.request(
      "POST", "/sessions", body: #"{"id": "s"}"#, headers: ["X-Request-ID": "create-1"])
    #expect(created.status == 201)
    #expect(created.header("x-request-id") == "create-1")
    let sent = try await service.request(
      "POST", "/sessions/s/actions", body: Actions.start, headers: ["X-Request-ID": "req.42:a_b-c"])
    #expect(sent.header("x-request-id") == "req.42:a_b-c")
    let refused = try await service.request(
      "POST", "/sessions/s/actions", body: Actions.name(7, "X"), headers: ["X-Request-ID": "bad-7"])
    #expect(refused.status == 422)
    #expect(refused.header("x-request-id") == "bad-7", "errors carry it too")
    // A restart: the first request on the session opens it from the journal, and that line
    // carries the request's identifier too.
    #expect(service.terminate() == 0)
    let secondLog = folder.url.appendingPathComponent("service-2.log")
    service = try ServiceProcess(database: folder.database, standardError: secondLog)
    let read = try await service.request(
      "GET", "/sessions/s/stack", headers: ["X-Request-ID": "after-restart"])
    #expect(read.status == 200)
    #expect(service.terminate() == 0)

    let log = try logLines(
      try String(contentsOf: logFile, encoding: .utf8)
        + String(contentsOf: secondLog, encoding: .utf8))
    let action = lines(of: "req.42:a_b-c", in: log)
    #expect(action.count == 1, "\(action)")
    #expect(action.first?["message"] as? String == "request")
    #expect(action.first?["route"] as? String == "/sessions/{id}/actions")
    #expect(action.first?["method"] as? String == "POST")
    #expect(action.first?["status"] as? String == "200")
    #expect(Double(action.first?["ms"] as? String ?? "") != nil)
    let refusal = lines(of: "bad-7", in: log)
    #expect(refusal.count == 1, "\(refusal)")
    #expect(refusal.first?["status"] as? String == "422")
    #expect(refusal.first?["code"] as? String == "unknownElement")
    let reopened = lines(of: "after-restart", in: log).map { $0["message"] as? String }
    #expect(reopened == ["session opened from the journal", "request"], "\(reopened)")
    // Every line of a request carries an identifier; the service's own lines (start, stop) are
    // the only ones without.
    for line in log where line["hb.request.id"] == nil {
      #expect(line["route"] == nil, "\(line)")
    }
    #expect(log.allSatisfy { $0["time"] is String && $0["level"] is String })
  }

  @Test("an X-Request-ID that is not a plain token is replaced, never repeated")
  func refusedRequestID() async throws {
    let folder = try TemporaryFolder()
    let logFile = folder.url.appendingPathComponent("service.log")
    let service = try ServiceProcess(database: folder.database, standardError: logFile)
    let hostile = [
      "<script>alert(1)</script>", "a b", "a/b", "ü", String(repeating: "a", count: 129), "",
    ]
    var given: [String] = []
    for value in hostile {
      let reply = try await service.request(
        "GET", "/health/live", headers: value.isEmpty ? [:] : ["X-Request-ID": value])
      #expect(reply.status == 200)
      let id = try #require(reply.header("x-request-id"))
      // A made one: a lower-case UUID.
      #expect(UUID(uuidString: id) != nil && id == id.lowercased(), "\(id)")
      given.append(id)
    }
    #expect(Set(given).count == hostile.count, "each request gets its own")
    // A control code in a header: the HTTP parser refuses the request before any route.
    let escape = try await service.request(
      "GET", "/health/live", headers: ["X-Request-ID": "x\u{1b}[31m"])
    #expect(escape.status == 400 && escape.errorCode == "malformedRequest", "\(escape.text)")
    let longest = String(repeating: "b", count: 128)
    let kept = try await service.request("GET", "/health/live", headers: ["X-Request-ID": longest])
    #expect(kept.header("x-request-id") == longest)
    #expect(service.terminate() == 0)
    let text = try String(contentsOf: logFile, encoding: .utf8)
    #expect(!text.contains("<script>") && !text.contains("\u{1b}"), "\(text)")
    let log = try logLines(text)
    for id in given { #expect(lines(of: id, in: log).count == 1) }
  }

  @Test("the journal logs through the service's logger: opening, a conflict, closing")
  func journalLines() async throws {
    let folder = try TemporaryFolder()
    let firstLog = folder.url.appendingPathComponent("first.log")
    let secondLog = folder.url.appendingPathComponent("second.log")
    let first = try ServiceProcess(database: folder.database, standardError: firstLog)
    let second = try ServiceProcess(database: folder.database, standardError: secondLog)
    _ = try await first.request("POST", "/sessions", body: #"{"id": "j"}"#)
    #expect(try await second.request("GET", "/sessions/j/stack").sequence == 0)
    _ = try await first.send("j", Actions.start)
    // The second instance's store is behind: its append conflicts.
    let lost = try await second.request("POST", "/sessions/j/actions", body: Actions.start)
    #expect(lost.status == 409, "\(lost.text)")
    #expect(first.terminate() == 0)
    #expect(second.terminate() == 0)

    let firstLines = try logLines(try String(contentsOf: firstLog, encoding: .utf8))
    let messages = firstLines.compactMap { $0["message"] as? String }
    #expect(messages.prefix(2) == ["created a journal file", "opened the journal"], "\(messages)")
    let opened = firstLines.first { $0["message"] as? String == "opened the journal" }
    #expect(opened?["journal"] as? String == folder.database)
    #expect(opened?["logger"] as? String == "navigation-service")
    #expect(messages.suffix(2) == ["closed the journal", "stopped; journal closed"], "\(messages)")

    let secondLines = try logLines(try String(contentsOf: secondLog, encoding: .utf8))
    let conflicts = secondLines.filter {
      $0["message"] as? String == "sequence conflict: another writer appended first"
    }
    #expect(conflicts.count == 1, "\(secondLines)")
    #expect(conflicts.first?["level"] as? String == "info")
    #expect(conflicts.first?["session"] as? String == "j")
    #expect(conflicts.first?["sequence"] as? String == "1")
    #expect(conflicts.first?["expected_sequence"] as? String == "0")
  }
}
