import Foundation
import StackJournalTestSupport
import StackNavigation
import StackStorage
import XCTest

/// `stackjournal report` without a browser: what the file holds and when the command refuses.
final class ReportCommandTests: CLITestCase {
  func testThePageIsSelfContainedWithAPolicyThatAllowsOnlyItsOwnScript() throws {
    let (path, session) = try makeDemo()
    let page = directory.path("page.html")
    let result = try runCLI(["report", session, "--db", path, "-o", page])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("Wrote \(page): session demo-1, sequences 0–10"))
    let html = try String(contentsOfFile: page, encoding: .utf8)

    let policy = try XCTUnwrap(ReportFile.policy(of: html))
    XCTAssertTrue(policy.hasPrefix("default-src 'none'; script-src 'sha256-"), policy)
    let script = try XCTUnwrap(ReportFile.inlineScript(of: html))
    XCTAssertTrue(
      policy.contains("script-src '\(ReportFile.hash(script))'"),
      "the policy names the hash of the page's own script")
    for outside in ["<link", " src=", "href=", "http://", "https://", "url(", "@import"] {
      XCTAssertFalse(html.contains(outside), "the page loads nothing from outside: \(outside)")
    }
    XCTAssertFalse(html.contains("innerHTML"), "the script builds the page with DOM calls only")
    XCTAssertEqual(html.components(separatedBy: "<script").count - 1, 2)
  }

  func testTheEmbeddedDataStartsFromTheStacksShowRebuildsAndHoldsEveryDelta() throws {
    let (path, session) = try makeDemo(actions: 30)
    let page = directory.path("range.html")
    let result = try runCLI([
      "report", session, "--db", path, "--from", "7", "--to", "25", "-o", page, "--json",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let summary = try result.jsonObject()
    XCTAssertEqual(summary["entries"] as? Int, 18)
    XCTAssertEqual(summary["output"] as? String, page)
    let data = try ReportFile.data(ofPageAt: page)
    XCTAssertEqual(data["from"] as? Int, 7)
    XCTAssertEqual(data["to"] as? Int, 25)
    let show = try runCLI(["show", session, "--at", "7", "--db", path, "--json"]).jsonObject()
    XCTAssertEqual(data["start"] as? NSArray, show["stacks"] as? NSArray)
    let entries = try XCTUnwrap(data["entries"] as? [[Any]])
    XCTAssertEqual(entries.map { $0[0] as? Int }, Array(8...25))
    let log = try runCLI([
      "log", session, "--from", "8", "--to", "25", "--db", path, "--ndjson",
    ]).jsonLines()
    let types = try XCTUnwrap(data["types"] as? [String])
    XCTAssertEqual(entries.map { types[$0[2] as! Int] }, log.map { $0["type"] as! String })
    XCTAssertEqual(
      entries.map { $0[3] as? NSObject }, log.map { $0["payload"] as? NSObject },
      "payloads as `log` prints them")
  }

  func testSinceAndUntilPickTheEntriesRecordedBetween() async throws {
    let path = directory.path("timed.sqlite")
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    try await recordPushes(
      "timed", at: path, start: t0, offsets: (1...6).map { Double($0) * 10 })
    // Entries 1…6 at t0 + 10 s … t0 + 60 s; t0 is 2023-11-14T22:13:20Z.
    let page = directory.path("timed.html")
    let result = try runCLI([
      "report", "timed", "--since", "2023-11-14T22:13:40Z", "--until", "2023-11-14T22:14:05Z",
      "--db", path, "-o", page, "--json",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let data = try ReportFile.data(ofPageAt: page)
    XCTAssertEqual(data["from"] as? Int, 1, "the moment before entry 2, the first at or after")
    XCTAssertEqual(data["to"] as? Int, 4, "entry 4, the last at or before")

    let late = try runCLI([
      "report", "timed", "--since", "2023-11-14T23:00:00Z", "--db", path, "-o", page,
    ])
    assertOneLineError(late, contains: "no entry recorded at or after")
  }

  func testALongSessionIsRefusedWithTheRangeToAskFor() throws {
    let (path, session) = try makeDemo()
    let page = directory.path("long.html")
    let refused = try runCLI(["report", session, "--db", path, "--max-entries", "4", "-o", page])
    assertOneLineError(refused, contains: "more than a page holds (--max-entries 4)")
    XCTAssertTrue(refused.stderr.contains("--from 6"), refused.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: page), "nothing written")
    let range = try runCLI([
      "report", session, "--db", path, "--max-entries", "4", "--from", "6", "-o", page,
    ])
    XCTAssertEqual(range.status, 0, range.stderr)

    let big = try runCLI(["report", session, "--db", path, "--max-bytes", "1024", "-o", page])
    assertOneLineError(big, contains: "--max-bytes")
  }

  func testAnOutputThatIsAJournalOrADirectoryIsRefusedAndLeftAlone() throws {
    let (path, session) = try makeDemo()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let onJournal = try runCLI(["report", session, "--db", path, "-o", path])
    assertOneLineError(onJournal, contains: "is a SQLite database, not a page")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    let onDirectory = try runCLI(["report", session, "--db", path, "-o", directory.url.path])
    assertOneLineError(onDirectory, contains: "is a directory")
  }

  func testBadRangesAndMissingSessionsFail() throws {
    let (path, session) = try makeDemo()
    let page = directory.path("bad.html")
    assertOneLineError(
      try runCLI(["report", session, "--db", path, "--from", "11", "-o", page]),
      contains: "has no sequence 11 (--from)")
    assertOneLineError(
      try runCLI(["report", "nobody", "--db", path, "-o", page]), contains: "no session nobody")
    let both = try runCLI(["report", session, "--db", path, "--from", "1", "--since", "10:00"])
    XCTAssertEqual(both.status, 64, both.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: page))
  }

  func testADeltaThatDoesNotFitStopsTheCommand() throws {
    let (path, session) = try makeDemo()
    try tamper(
      path,
      "UPDATE journal SET delta = ? WHERE session_number = "
        + "(SELECT number FROM sessions WHERE id = ?) AND sequence = 3",
      arguments: [
        #"{"changes":[{"path":"path","nextID":4,"ids":[0,1,2],"pushed":[],"popped":[77],"#
          + #""changed":[],"removed":false}]}"#,
        session,
      ])
    let page = directory.path("broken.html")
    let result = try runCLI(["report", session, "--db", path, "-o", page])
    assertOneLineError(result, contains: "Entry 3 of session demo-1")
    XCTAssertFalse(FileManager.default.fileExists(atPath: page))
  }

  func testTheDefaultFileIsNamedAfterTheSessionAndDashWritesToStandardOutput() throws {
    let (path, session) = try makeDemo()
    let result = try runCLI(
      ["report", session, "--db", path], directory: directory.url)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path("demo-1.html")))
    let piped = try runCLI(["report", session, "--db", path, "-o", "-"])
    XCTAssertEqual(piped.status, 0, piped.stderr)
    XCTAssertTrue(piped.stdout.hasPrefix("<!DOCTYPE html>"))
    XCTAssertEqual(
      piped.stdout.count,
      try String(contentsOfFile: directory.path("demo-1.html"), encoding: .utf8).count)
  }

  func testHostileTextIsEscapedInTheFile() async throws {
    let path = try await HostileJournal.make(in: directory)
    let page = directory.path("hostile.html")
    let result = try runCLI(["report", HostileJournal.session, "--db", path, "-o", page])
    XCTAssertEqual(result.status, 0, result.stderr)
    let html = try String(contentsOfFile: page, encoding: .utf8)
    XCTAssertEqual(
      html.components(separatedBy: "</script>").count - 1, 2,
      "only the page's own two script elements close")
    XCTAssertFalse(html.contains("<img"), "no markup from the journal")
    XCTAssertFalse(html.contains("\u{2028}"))
    XCTAssertTrue(html.contains(#"\u003c/script\u003e"#))
    let data = try ReportFile.data(ofPageAt: page)
    let entries = try XCTUnwrap(data["entries"] as? [[Any]])
    let payload = try XCTUnwrap(entries.first?[3] as? [String: Any])
    XCTAssertEqual(payload["note"] as? String, HostileJournal.script, "the text is kept exactly")
  }
}

/// A journal whose every text tries to become markup or script in a page.
enum HostileJournal {
  static let session = "evil</script><script>window.__pwned='session'</script>"
  static let script =
    "</script><script>document.title='pwned';window.__pwned='payload'</script>"
    + "<img src=x onerror=\"window.__pwned='img'\">\u{2028}"
  static let link = "javascript:window.__pwned='link'"
  static let caseName = "<img src=x onerror=\"window.__pwned='case'\">"
  static let stackKey = "<svg onload=\"window.__pwned='path'\">"

  /// Creates the journal in `directory` and returns its path.
  static func make(in directory: TemporaryDirectory) async throws -> String {
    let path = directory.path("hostile.sqlite")
    let journal = try SQLiteJournal(path: path)
    var stack = StackState<[String: String]>()
    stack.append([caseName: link])
    func state() async throws -> EncodedState {
      try StateEncoding.encode([stackKey: stack])
    }
    let metadata = try JSONSerialization.data(
      withJSONObject: ["note": script, "url": link], options: [.sortedKeys])
    _ = try await journal.createSession(
      SessionID(session), initial: await state(), version: 1, metadata: metadata)
    stack.append([caseName: script])
    let payload = try JSONSerialization.data(
      withJSONObject: ["note": script, "href": link], options: [.sortedKeys])
    _ = try await journal.append(
      session: SessionID(session), expectedSequence: 0,
      JournalEntryDraft(
        type: "push.</script><b onmouseover=alert(1)>", version: 1, payload: payload,
        state: try await state()))
    stack[id: 0] = [caseName: script + link]
    _ = try await journal.append(
      session: SessionID(session), expectedSequence: 1,
      JournalEntryDraft(type: "change", version: 1, payload: payload, state: try await state()))
    return path
  }
}

/// Readings of a report page's file.
enum ReportFile {
  /// The Content-Security-Policy of the page's meta element.
  static func policy(of html: String) -> String? {
    guard let meta = html.range(of: #"<meta http-equiv="Content-Security-Policy" content=""#),
      let end = html[meta.upperBound...].range(of: "\"")
    else { return nil }
    return String(html[meta.upperBound..<end.lowerBound])
  }

  /// The text of the page's inline script (the element without a type).
  static func inlineScript(of html: String) -> String? {
    guard let open = html.range(of: "<script>"),
      let close = html[open.upperBound...].range(of: "</script>")
    else { return nil }
    return String(html[open.upperBound..<close.lowerBound])
  }

  /// The embedded JSON, parsed.
  static func data(ofPageAt path: String) throws -> [String: Any] {
    let html = try String(contentsOfFile: path, encoding: .utf8)
    let marker = #"<script type="application/json" id="journal-data">"#
    guard let open = html.range(of: marker),
      let close = html[open.upperBound...].range(of: "</script>")
    else { throw CLIRunnerError("No journal-data element in \(path)") }
    let text = html[open.upperBound..<close.lowerBound]
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { throw CLIRunnerError("The journal-data element is not a JSON object") }
    return object
  }

  /// `sha256-<base64>` of a text, as a Content-Security-Policy names it.
  static func hash(_ text: String) -> String {
    "sha256-" + Data(SHA256.digest(Array(text.utf8))).base64EncodedString()
  }
}
