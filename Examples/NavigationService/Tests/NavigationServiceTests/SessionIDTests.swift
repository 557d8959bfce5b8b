import Foundation
import Testing

@Suite("session identifiers: an alphabet, never echoed")
struct SessionIDTests {
  @Test("session IDs outside [A-Za-z0-9._-]{1,64} are refused at creation, never echoed")
  func sessionIDAlphabet() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    let refused = [
      "../../etc/passwd", "<script>x</script>", "<img src=x onerror=alert(1)>", ".hidden",
      String(repeating: "a", count: 65), "a b", "caf\u{E9}", "a/b", "",
    ]
    for id in refused {
      let body = String(
        decoding: try JSONSerialization.data(withJSONObject: ["id": id]), as: UTF8.self)
      let created = try await service.request("POST", "/sessions", body: body)
      #expect(created.status == 400, "\(id): \(created.status) \(created.text)")
      #expect(created.errorCode == "invalidSessionID", "\(id): \(created.text)")
      #expect(id.isEmpty || !created.text.contains(id), "\(created.text)")
    }
    for id in ["user-42.v2_X", String(repeating: "z", count: 64), "A.b-c_9"] {
      let created = try await service.request("POST", "/sessions", body: #"{"id": "\#(id)"}"#)
      #expect(created.status == 201, "\(id): \(created.text)")
    }
    let forked = try await service.request(
      "POST", "/sessions/user-42.v2_X/fork", body: #"{"into": "<b>x</b>"}"#)
    #expect(forked.status == 400, "\(forked.text)")
    #expect(forked.errorCode == "invalidSessionID")
    // Error messages describe; they do not repeat what the client chose.
    let outOfRange = try await service.request("GET", "/sessions/user-42.v2_X/stack?at=9")
    #expect(outOfRange.status == 422)
    #expect(!outOfRange.text.contains("user-42.v2_X"), "\(outOfRange.text)")
    let markup = try await service.request(
      "GET", "/sessions/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E/stack?at=9")
    #expect((400..<500).contains(markup.status))
    #expect(!markup.text.contains("<") && !markup.text.contains("onerror"), "\(markup.text)")
    #expect(service.terminate() == 0)
  }
}
