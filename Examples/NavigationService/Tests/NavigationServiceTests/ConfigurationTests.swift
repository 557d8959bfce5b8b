import Foundation
import Testing

/// The service's environment for a test: the test's own, without any `NAVIGATION_…` variable or
/// `PGPASSWORD` it may hold, plus `extra`.
private func environment(_ extra: [String: String]) -> [String: String] {
  ProcessInfo.processInfo.environment.filter {
    !$0.key.hasPrefix("NAVIGATION_") && $0.key != "PGPASSWORD"
  }.merging(extra) { $1 }
}

@Suite("configuration from the environment")
struct ConfigurationTests {
  @Test(
    "a bad value stops the service at start: exit 2, the name of the variable or option, not the value",
    arguments: [
      (["NAVIGATION_PORT": "80000"], [], "NAVIGATION_PORT takes a whole number from 0 to 65535"),
      (["NAVIGATION_PORT": "<b>8080</b>"], [], "NAVIGATION_PORT takes a whole number"),
      (["NAVIGATION_BODY_LIMIT": "12"], [], "NAVIGATION_BODY_LIMIT takes a whole number of bytes"),
      (["NAVIGATION_BODY_LIMIT": "1e9"], [], "NAVIGATION_BODY_LIMIT takes"),
      (["NAVIGATION_IDLE_SECONDS": "-1"], [], "NAVIGATION_IDLE_SECONDS takes"),
      (["NAVIGATION_IDLE_SECONDS": "nan"], [], "NAVIGATION_IDLE_SECONDS takes"),
      (["NAVIGATION_DRAIN_SECONDS": "9999"], [], "NAVIGATION_DRAIN_SECONDS takes"),
      (["NAVIGATION_DURABILITY": "fast\u{1b}[31m"], [], "NAVIGATION_DURABILITY takes full, normal"),
      (["NAVIGATION_LOG_LEVEL": "loud"], [], "NAVIGATION_LOG_LEVEL takes trace, debug"),
      (["NAVIGATION_HOST": "local host"], [], "NAVIGATION_HOST takes an address"),
      (["NAVIGATION_DB": String(repeating: "d", count: 4097)], [], "NAVIGATION_DB is over 4096 bytes"),
      (["PGPASSWORD": "pass\nword"], ["--db", "x.sqlite"], "PGPASSWORD holds control characters"),
      ([:], [], "no database: give --db PATH|URL or set NAVIGATION_DB"),
      ([:], ["--db", "x.sqlite", "--body-limit", "big"], "--body-limit takes a whole number"),
      ([:], ["--db", "x.sqlite", "--port"], "--port takes a whole number"),
    ] as [([String: String], [String], String)])
  func badValue(variables: [String: String], arguments: [String], message: String) throws {
    let folder = try TemporaryFolder()
    var variables = variables
    if variables["NAVIGATION_DB"] == nil, !arguments.contains("--db"), !variables.isEmpty {
      variables["NAVIGATION_DB"] = folder.database
    }
    let result = try runChild(
      try builtExecutable("navigation-service"), arguments,
      environment: environment(variables), timeout: .seconds(30))
    #expect(result.status == 2, "\(result.standardError)")
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 2, "\(result.standardError)")
    #expect(lines.first?.hasPrefix("navigation-service: \(message)") == true, "\(result.standardError)")
    #expect(lines.last?.hasPrefix("usage: navigation-service") == true)
    // The value itself is not repeated (only the names of what was wrong).
    for value in variables.values where value != folder.database {
      #expect(!result.standardError.contains(value), "\(result.standardError)")
    }
    #expect(!result.standardError.contains("\u{1b}") && !result.standardError.contains("<b>"))
    #expect(result.standardOutput.isEmpty)
  }

  @Test("the service runs from the environment alone; an option wins over its variable")
  func fromEnvironment() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(
      database: nil,
      environment: [
        "NAVIGATION_DB": folder.database, "NAVIGATION_BODY_LIMIT": "2048",
        "NAVIGATION_PORT": "1", "NAVIGATION_LOG_LEVEL": "warning",
      ],
      standardError: folder.url.appendingPathComponent("service.log"))
    // `--port 0` from the command line won over NAVIGATION_PORT=1.
    #expect(service.port != 1)
    #expect(try await service.request("POST", "/sessions", body: #"{"id": "e"}"#).status == 201)
    let name = String(repeating: "n", count: 2100)
    let large = try await service.request(
      "POST", "/sessions/e/actions", body: #"{"startTapped": {}, "x": "\#(name)"}"#)
    #expect(large.status == 413, "\(large.text)")
    #expect(large.errorCode == "bodyTooLarge")
    #expect(large.text.contains("larger than 2048 bytes"), "\(large.text)")
    let small = try await service.request("POST", "/sessions/e/actions", body: Actions.start)
    #expect(small.status == 200)
    #expect(service.terminate() == 0)
    // NAVIGATION_LOG_LEVEL=warning: the requests' info lines are not written.
    let log = try String(
      contentsOf: folder.url.appendingPathComponent("service.log"), encoding: .utf8)
    #expect(!log.contains(#""message":"request""#), "\(log)")

    // The command line's --body-limit wins over the variable.
    let wider = try ServiceProcess(
      database: nil, extraArguments: ["--body-limit", "4096"],
      environment: ["NAVIGATION_DB": folder.database, "NAVIGATION_BODY_LIMIT": "2048"])
    let accepted = try await wider.request(
      "POST", "/sessions/e/actions", body: #"{"cancelTapped": {}, "x": "\#(name)"}"#)
    #expect(accepted.status == 200, "\(accepted.text)")
    #expect(wider.terminate() == 0)
  }
}
