import Foundation
import Testing

@Suite("a request the HTTP parser rejects gets a JSON error")
struct MalformedHTTPTests {
  @Test("malformed bodies, huge URLs and headers, garbage request lines: JSON 4xx with a code")
  func malformedHTTP() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    _ = try await service.request("POST", "/sessions", body: #"{"id": "s"}"#)

    let longPath = "/sessions/" + String(repeating: "a", count: 100_000) + "/stack"
    let bigHeader = "X-Big: " + String(repeating: "b", count: 200_000)
    let requests: [(String, String)] = [
      (
        "malformed chunked body",
        "POST /sessions/s/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          + "Transfer-Encoding: chunked\r\n\r\nZZZ\r\n{}\r\n0\r\n\r\n"
      ),
      ("100 KB URL", "GET \(longPath) HTTP/1.1\r\nHost: x\r\n\r\n"),
      ("200 KB header", "GET /sessions/s/stack HTTP/1.1\r\nHost: x\r\n\(bigHeader)\r\n\r\n"),
      ("garbage request line", "<script>GARBAGE</script> \u{1}\u{2}\r\n\r\n"),
    ]
    for (what, request) in requests {
      let reply = RawReply(try rawExchange(port: service.port, Data(request.utf8)))
      let status = try #require(reply.status, "\(what): no HTTP reply")
      #expect((400..<500).contains(status), "\(what): \(status)")
      #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true, "\(what)")
      #expect(reply.errorCode != nil, "\(what): \(reply.text)")
      #expect(!reply.text.contains("<"), "\(what): \(reply.text)")
      #expect(!reply.text.contains("aaaa") && !reply.text.contains("bbbb"), "\(what)")
    }
    // A malformed body a route does not read: the route answers, then the connection gets the
    // JSON error, not an empty 400.
    let unread = try rawExchange(
      port: service.port,
      Data(
        ("GET /health/live HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "ZZZ\r\n\r\n").utf8))
    let text = String(decoding: unread, as: UTF8.self)
    #expect(RawReply(unread).status == 200, "\(text)")
    #expect(text.contains(#""code":"malformedRequest""#), "\(text)")
    #expect(!text.contains("Content-Length: 0"), "\(text)")
    // The service still serves, and the session is unchanged.
    let stack = try await service.request("GET", "/sessions/s/stack")
    #expect(stack.status == 200)
    #expect(stack.sequence == 0)
    #expect(service.terminate() == 0)
  }
}
