import Foundation
import Testing

@Suite("the generated server reads requests as the hand-written routes did")
struct GeneratedServerTests {
  @Test("any Content-Type or Accept, no body, and a plus in the query are read as before")
  func readsAsBefore() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    /// One request on its own connection, with `headers` and `body`.
    func raw(_ requestLine: String, _ headers: String = "", _ body: String = "") throws -> RawReply
    {
      let request =
        "\(requestLine) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(headers)"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
      return RawReply(try rawExchange(port: service.port, Data(request.utf8)))
    }

    // `curl -d` sends a form's Content-Type: the body is read as JSON all the same.
    let form = try raw(
      "POST /sessions", "Content-Type: application/x-www-form-urlencoded\r\n", #"{"id": "p"}"#)
    #expect(form.status == 201, "\(form.text)")
    // No body: a session whose identifier the service makes.
    let empty = try raw("POST /sessions")
    #expect(empty.status == 201, "\(empty.text)")
    #expect(empty.text.contains(#""sequence":0"#), "\(empty.text)")
    // An Accept without JSON gets the JSON: the action is appended once, and answered.
    let html = try raw(
      "POST /sessions/p/actions", "Accept: text/html\r\nContent-Type: text/plain\r\n",
      #"{"startTapped": {}}"#)
    #expect(html.status == 200, "\(html.text)")
    #expect(html.headers["content-type"] == "application/json; charset=utf-8")
    #expect(html.text.contains(#""sequence":1"#), "\(html.text)")
    // A `+` in the query is a plus: the offset of a time (a space would be a 400 `badTime`).
    let offset = try await service.request(
      "GET", "/sessions/p/stack?time=2999-01-01T00:00:00+01:00")
    #expect(offset.status == 200, "\(offset.text)")
    #expect(offset.sequence == 1)
    // A fork without a body forks the head.
    let fork = try raw("POST /sessions/p/fork")
    #expect(fork.status == 201, "\(fork.text)")
    #expect(fork.text.contains(#""forkedAt":1"#), "\(fork.text)")
    // Input the generated server cannot decode gets the service's own 400s.
    let notJSON = try raw("POST /sessions/p/actions", "", "[1, 2]")
    #expect(notJSON.status == 400 && notJSON.errorCode == "undecodableAction", "\(notJSON.text)")
    let badCreate = try raw("POST /sessions", "", #"{"id": 5}"#)
    #expect(badCreate.status == 400 && badCreate.errorCode == "badRequest", "\(badCreate.text)")
    let emptyAt = try await service.request("GET", "/sessions/p/stack?at=")
    #expect(emptyAt.status == 400 && emptyAt.errorCode == "badSequence", "\(emptyAt.text)")
    #expect(try await service.request("GET", "/sessions/p/stack").sequence == 1)
    #expect(service.terminate() == 0)
  }
}
