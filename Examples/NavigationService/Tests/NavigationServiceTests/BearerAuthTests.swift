import Foundation
import Testing

private let aliceToken = "alice-token-0123456789"
private let bobToken = "bob-token-9876543210abc"

private func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer \(token)"] }

@Suite("bearer tokens and session owners")
struct BearerAuthTests {
  @Test("off by default: no Authorization needed, and one that is sent is ignored")
  func offByDefault() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    #expect(try await service.request("POST", "/sessions", body: #"{"id": "o"}"#).status == 201)
    let sent = try await service.request(
      "POST", "/sessions/o/actions", body: Actions.start, headers: bearer("whatever-token-at-all"))
    #expect(sent.status == 200)
    #expect(try await service.request("GET", "/sessions/o/stack").sequence == 1)
    #expect(service.terminate() == 0)
  }

  @Test("on: 401 without a known token, 403 on another owner's session, nothing recorded")
  func ownersOnly() async throws {
    let folder = try TemporaryFolder()
    let tokens = folder.url.appendingPathComponent("tokens")
    try "# token owner\n\(aliceToken) alice\n\n\(bobToken)\tbob\n".write(
      to: tokens, atomically: true, encoding: .utf8)
    let service = try ServiceProcess(
      database: folder.database, environment: ["NAVIGATION_AUTH_TOKENS_FILE": tokens.path])

    // No token, an unknown one, another scheme, markup: 401 with a challenge, nothing echoed.
    for headers in [
      [:], bearer("not-a-known-token-000"), ["Authorization": "Basic YWxpY2U6cGFzcw=="],
      bearer("<script>alert(1)</script>"), ["Authorization": aliceToken],
    ] {
      let reply = try await service.request(
        "POST", "/sessions", body: #"{"id": "x"}"#, headers: headers)
      #expect(reply.status == 401, "\(headers): \(reply.text)")
      #expect(reply.errorCode == "unauthorized")
      #expect(reply.header("www-authenticate") == "Bearer")
      #expect(!reply.text.contains("script") && !reply.text.contains("YWxp"))
    }
    // Health and metrics stay open.
    #expect(try await service.request("GET", "/health/ready").status == 200)
    #expect(try await service.request("GET", "/metrics").status == 200)

    let created = try await service.request(
      "POST", "/sessions", body: #"{"id": "a1"}"#, headers: bearer(aliceToken))
    #expect(created.status == 201, "\(created.text)")
    #expect(
      try await service.request(
        "POST", "/sessions/a1/actions", body: Actions.start, headers: bearer(aliceToken)
      ).sequence == 1)

    // Bob reaches none of Alice's session: not its stack now or in history, not an action, not
    // a fork; an unknown session is still a 404.
    for (method, path, body) in [
      ("GET", "/sessions/a1/stack", nil), ("GET", "/sessions/a1/stack?at=0", nil),
      ("POST", "/sessions/a1/actions", Actions.cancel),
      ("POST", "/sessions/a1/fork", #"{"into": "b-copy"}"#),
    ] as [(String, String, String?)] {
      let reply = try await service.request(method, path, body: body, headers: bearer(bobToken))
      #expect(reply.status == 403, "\(method) \(path): \(reply.text)")
      #expect(reply.errorCode == "forbidden")
    }
    #expect(
      try await service.request("GET", "/sessions/nobody/stack", headers: bearer(bobToken)).status
        == 404)

    // A fork is its caller's.
    let fork = try await service.request(
      "POST", "/sessions/a1/fork", body: #"{"into": "a2"}"#, headers: bearer(aliceToken))
    #expect(fork.status == 201, "\(fork.text)")
    #expect(
      try await service.request("GET", "/sessions/a2/stack", headers: bearer(bobToken)).status
        == 403)
    #expect(
      try await service.request("GET", "/sessions/a2/stack", headers: bearer(aliceToken)).status
        == 200)

    // Keys and owners share the metadata: a keyed action keeps the owner.
    let keyed = try await service.request(
      "POST", "/sessions/a1/actions", body: Actions.cancel,
      headers: bearer(aliceToken).merging(["Idempotency-Key": "c1"]) { $1 })
    #expect(keyed.sequence == 2)
    #expect(
      try await service.request("GET", "/sessions/a1/stack", headers: bearer(bobToken)).status
        == 403)
    let head = try await service.request("GET", "/sessions/a1/stack", headers: bearer(aliceToken))
    #expect(head.sequence == 2, "bob's refused action was not recorded")
    #expect(service.terminate() == 0)
  }

  @Test("a tokens file the service cannot use stops it at start, naming the line, not the token")
  func badTokensFile() throws {
    let folder = try TemporaryFolder()
    let cases: [(String, String)] = [
      ("short alice\n", "line 1 is not `TOKEN OWNER`"),
      ("\(aliceToken) alice\n\(bobToken) bob extra\n", "line 2 is not `TOKEN OWNER`"),
      ("\(aliceToken) <b>\n", "line 1 is not `TOKEN OWNER`"),
      ("# nothing\n", "holds no token"),
    ]
    for (text, message) in cases {
      let file = folder.url.appendingPathComponent("tokens")
      try text.write(to: file, atomically: true, encoding: .utf8)
      let result = try runChild(
        try builtExecutable("navigation-service"),
        ["--db", folder.database, "--auth-tokens", file.path], timeout: .seconds(30))
      #expect(result.status == 2, "\(result.standardError)")
      #expect(result.standardError.contains("--auth-tokens \(message)"), "\(result.standardError)")
      #expect(!result.standardError.contains(aliceToken) && !result.standardError.contains("<b>"))
    }
    let missing = try runChild(
      try builtExecutable("navigation-service"),
      ["--db", folder.database, "--auth-tokens", "/nonexistent/tokens"], timeout: .seconds(30))
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("names no readable file"), "\(missing.standardError)")
  }
}
