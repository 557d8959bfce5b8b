import Foundation
import Testing

/// The samples of a Prometheus text exposition: `name{labels}` (or `name`) → value.
private func samples(_ text: String) -> [String: Double] {
  var result: [String: Double] = [:]
  for line in text.split(separator: "\n") where !line.hasPrefix("#") {
    guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
    else { continue }
    result[String(line[..<space])] = value
  }
  return result
}

/// A request-latency histogram's count for one method, route and status.
private func requests(_ method: String, _ route: String, _ status: Int) -> String {
  #"navigation_request_duration_seconds_count{method="\#(method)",route="\#(route)",status="\#(status)"}"#
}

@Suite("GET /metrics")
struct MetricsTests {
  @Test("the counters and histograms count exactly what the test did")
  func countsWhatHappened() async throws {
    let folder = try TemporaryFolder()
    // The first instance at the default durability, group commit; the second at `full`.
    let first = try ServiceProcess(database: folder.database)
    let second = try ServiceProcess(
      database: folder.database, extraArguments: ["--durability", "full"])

    // First instance: a session, three actions, one refused action, one unknown endpoint.
    #expect(try await first.request("POST", "/sessions", body: #"{"id": "m"}"#).status == 201)
    try await first.send("m", Actions.start)
    try await first.send("m", Actions.name(0, "Ann"))
    try await first.send("m", Actions.nameNext(0))
    #expect(try await first.request("POST", "/sessions/m/actions", body: Actions.submit(9)).status == 422)
    #expect(try await first.request("GET", "/nowhere").status == 404)

    // Second instance: reads the session (opened from the journal), then the first appends, so
    // the second's next action is a 409; its retry reopens the session and lands.
    #expect(try await second.request("GET", "/sessions/m/stack").sequence == 3)
    try await first.send("m", Actions.plan(1, "team"))
    let stale = try await second.request("POST", "/sessions/m/actions", body: Actions.planNext(1))
    #expect(stale.status == 409)
    #expect(try await second.send("m", Actions.planNext(1)).sequence == 5)

    let a = try await first.request("GET", "/metrics")
    #expect(a.status == 200)
    #expect(a.contentType?.hasPrefix("text/plain") == true)
    let m = samples(a.text)
    let actions = "/sessions/{id}/actions"
    #expect(m[requests("POST", "/sessions", 201)] == 1, "\(a.text)")
    #expect(m[requests("POST", actions, 200)] == 4)
    #expect(m[requests("POST", actions, 422)] == 1)
    #expect(m[requests("GET", "NotFound", 404)] == 1)
    #expect(m["navigation_append_duration_seconds_count"] == 4)
    #expect(m["navigation_sequence_conflicts_total"] == 0)
    #expect(m["navigation_rehydrations_total"] == 0)
    #expect(m["navigation_live_sessions"] == 1)
    // Group commit: the four appends, one after another, each its own batch.
    #expect(m["navigation_group_commit_appends"] == 4)
    #expect(m["navigation_group_commit_batches"] == 4)
    #expect(m["navigation_group_commit_largest_batch"] == 1)
    // A histogram's buckets add up to its count.
    #expect(m[#"navigation_append_duration_seconds_bucket{le="+Inf"}"#] == 4)

    let b = samples(try await second.request("GET", "/metrics").text)
    #expect(b[requests("GET", "/sessions/{id}/stack", 200)] == 1)
    #expect(b[requests("POST", actions, 409)] == 1)
    #expect(b[requests("POST", actions, 200)] == 1)
    #expect(b["navigation_sequence_conflicts_total"] == 1)
    // Opened for the read, and again for the retry after the 409.
    #expect(b["navigation_rehydrations_total"] == 2)
    #expect(b["navigation_append_duration_seconds_count"] == 1)
    #expect(b["navigation_live_sessions"] == 1)
    // Not in group-commit mode: no batches to tell.
    #expect(b["navigation_group_commit_batches"] == nil)

    // The first scrape is counted once it is answered.
    let again = samples(try await first.request("GET", "/metrics").text)
    #expect(again[requests("GET", "/metrics", 200)] == 1)
    #expect(first.terminate() == 0)
    #expect(second.terminate() == 0)
  }
}
