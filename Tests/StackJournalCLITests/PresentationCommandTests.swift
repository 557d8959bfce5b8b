import Foundation
import StackJournalTestSupport
import StackNavigation
import StackStorage
import XCTest

/// What is presented, and where, as `show`, `diff`, `log` and the page tell it from a journal
/// alone: the demo's fact alert over its number-fact element, and an alert whose title is hostile
/// text.
final class PresentationCommandTests: CLITestCase {
  /// The alerts open in the stacks `show --json` printed: each number-fact element whose state
  /// holds an alert, by the path its presentation is journaled at, with its title.
  private func alertsInElements(_ stacks: [[String: Any]]) -> [String: String] {
    var alerts: [String: String] = [:]
    for stack in stacks {
      let path = stack["path"] as? String ?? ""
      for element in stack["elements"] as? [[String: Any]] ?? [] {
        guard element["case"] as? String == "numberFact",
          let state = element["state"] as? [String: Any],
          let alert = state["alert"] as? [String: Any], let id = element["id"] as? Int
        else { continue }
        alerts["\(path)[#\(id)].numberFact.alert"] = alert["title"] as? String
      }
    }
    return alerts
  }

  func testShowSaysWhereTheDemosAlertIsOpenAtEverySequence() throws {
    let (path, session) = try makeDemo(snapshotInterval: 4, actions: 60)
    let head = try XCTUnwrap(
      try runCLI(["show", session, "--db", path, "--json"]).jsonObject()["sequence"] as? Int)
    var open: [Int] = []
    for sequence in 0...head {
      let result = try runCLI(["show", session, "--at", String(sequence), "--db", path, "--json"])
      XCTAssertEqual(result.status, 0, result.stderr)
      let object = try result.jsonObject()
      let stacks = try XCTUnwrap(object["stacks"] as? [[String: Any]])
      XCTAssertFalse(stacks.contains { $0["kind"] as? String == "presentation" })
      let presentations = try XCTUnwrap(object["presentations"] as? [[String: Any]])
      var shown: [String: String] = [:]
      for presentation in presentations {
        XCTAssertEqual(presentation["kind"] as? String, "alert", "at \(sequence)")
        shown[presentation["path"] as? String ?? ""] = presentation["title"] as? String
        let over = try XCTUnwrap(presentation["over"] as? [String: Any])
        XCTAssertEqual(over["stack"] as? String, "path")
      }
      // The journal's presentations are exactly the alerts the elements' states hold.
      XCTAssertEqual(shown, alertsInElements(stacks), "at \(sequence)")
      if !shown.isEmpty { open.append(sequence) }
    }
    XCTAssertFalse(open.isEmpty, "the demo opened its fact alert")
    XCTAssertLessThan(open.count, head + 1, "and it was not open all along")

    let sequence = try XCTUnwrap(open.first)
    let text = try runCLI(["show", session, "--at", String(sequence), "--db", path])
    XCTAssertEqual(text.status, 0, text.stderr)
    let line = try XCTUnwrap(
      text.stdout.split(separator: "\n").first { $0.contains("alert \"") }, text.stdout)
    XCTAssertTrue(line.contains(" over #"), String(line))
    XCTAssertTrue(line.contains(" of path  (path[#"), String(line))
  }

  func testLogAndDiffSayWhatWasPresentedAndDismissed() throws {
    let (path, session) = try makeDemo(snapshotInterval: 4, actions: 60)
    let log = try runCLI(["log", session, "--db", path, "--json"])
    XCTAssertEqual(log.status, 0, log.stderr)
    let entries = try XCTUnwrap(try log.jsonObject()["entries"] as? [[String: Any]])
    var presentedAt: Int?
    var dismissedAt: Int?
    for entry in entries {
      for change in entry["changes"] as? [[String: Any]] ?? []
      where change["presentation"] as? Bool == true {
        let sequence = try XCTUnwrap(entry["sequence"] as? Int)
        if change["removed"] as? Bool == true {
          if presentedAt != nil, dismissedAt == nil { dismissedAt = sequence }
        } else if presentedAt == nil {
          presentedAt = sequence
          let presented = try XCTUnwrap(change["presented"] as? [String: Any])
          XCTAssertEqual(presented["kind"] as? String, "alert")
          XCTAssertNotNil(presented["title"] as? String)
        }
      }
    }
    let presented = try XCTUnwrap(presentedAt)
    let dismissed = try XCTUnwrap(dismissedAt)

    let text = try runCLI(["log", session, "--db", path])
    XCTAssertEqual(text.status, 0, text.stderr)
    let lines = text.stdout.split(separator: "\n")
    XCTAssertTrue(
      lines.contains {
        $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(presented) ")
          && $0.contains("presented alert \"")
      }, text.stdout)
    XCTAssertTrue(
      lines.contains {
        $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(dismissed) ")
          && $0.contains("dismissed what was presented over #")
      }, text.stdout)

    for (from, to, change) in [
      (presented - 1, presented, "presented"), (dismissed - 1, dismissed, "dismissed"),
    ] {
      let diff = try runCLI(["diff", session, String(from), String(to), "--db", path, "--json"])
      XCTAssertEqual(diff.status, 0, diff.stderr)
      let changes = try XCTUnwrap(try diff.jsonObject()["presentations"] as? [[String: Any]])
      XCTAssertEqual(changes.map { $0["change"] as? String }, [change], "\(from) → \(to)")
      let diffText = try runCLI(["diff", session, String(from), String(to), "--db", path])
      XCTAssertTrue(diffText.stdout.contains("\n  \(change) alert \""), diffText.stdout)
    }
  }

  /// A journal holding an alert over a stack element and one at the root, whose titles try to
  /// move the terminal and to become markup.
  static let hostileTitle =
    "\u{1B}[2J\u{1B}]0;owned\u{07}</script><script>window.__pwned='title'</script>"
    + "<img src=x onerror=\"window.__pwned='img'\">\u{202E}"

  struct Screen: Codable, Equatable {
    var number: Int
    @Presents var alert: AlertState<Never>?
  }

  struct Root: Codable, Equatable {
    var path = StackState<Screen>()
    @Presents var alert: AlertState<Never>?
  }

  private func hostileJournal() async throws -> String {
    let file = directory.path("hostile-alert.sqlite")
    let journal = try SQLiteJournal(path: file)
    var root = Root(path: [Screen(number: 1)])
    _ = try await journal.createSession(
      "alerts", initial: try StateEncoding.encode(root), version: 1)
    root.path[id: 0]?.alert = AlertState { TextState(Self.hostileTitle) }
    _ = try await journal.append(
      session: "alerts", expectedSequence: 0,
      JournalEntryDraft(
        type: "element.alert", version: 1, payload: Data("{}".utf8),
        state: try StateEncoding.encode(root)))
    root.alert = AlertState { TextState(Self.hostileTitle) }
    _ = try await journal.append(
      session: "alerts", expectedSequence: 1,
      JournalEntryDraft(
        type: "root.alert", version: 1, payload: Data("{}".utf8),
        state: try StateEncoding.encode(root)))
    try journal.close()
    return file
  }

  func testAHostileTitleIsEscapedInTheTerminalAndKeptExactInJSON() async throws {
    let file = try await hostileJournal()
    let text = try runCLI(["show", "alerts", "--db", file])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertNil(
      text.stdout.unicodeScalars.first {
        ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || $0 == "\u{202E}"
      }, "a control or format character reached the terminal")
    let lines = text.stdout.split(separator: "\n").filter { $0.contains("alert \"") }
    XCTAssertEqual(lines.count, 2, text.stdout)
    XCTAssertTrue(lines.contains { $0.contains("over #0 of path") }, text.stdout)
    XCTAssertTrue(lines.contains { $0.contains("at the root  (alert)") }, text.stdout)

    let json = try runCLI(["show", "alerts", "--db", file, "--json"])
    let presentations = try XCTUnwrap(try json.jsonObject()["presentations"] as? [[String: Any]])
    XCTAssertEqual(presentations.map { $0["path"] as? String }, ["alert", "path[#0].alert"])
    XCTAssertEqual(presentations.map { $0["title"] as? String }, Array(repeating: Self.hostileTitle, count: 2))

    let log = try runCLI(["log", "alerts", "--db", file])
    XCTAssertEqual(log.status, 0, log.stderr)
    XCTAssertNil(
      log.stdout.unicodeScalars.first { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F })
    XCTAssertEqual(
      log.stdout.split(separator: "\n").filter { $0.contains("presented alert \"") }.count, 2,
      log.stdout)
  }

  func testAHostileTitleIsInertTextOnThePage() async throws {
    guard HeadlessChromium.executable() != nil else {
      throw XCTSkip(
        "No Chromium: install Debian's `chromium` (.ci/run does) to run the page's tests.")
    }
    let file = try await hostileJournal()
    let page = directory.path("alerts.html")
    let result = try runCLI(["report", "alerts", "--db", file, "-o", page])
    XCTAssertEqual(result.status, 0, result.stderr)
    let browser = try HeadlessChromium()
    defer { browser.close() }
    let tab = try browser.open(
      URL(string: URL(fileURLWithPath: page).absoluteString + "#seq=2")!,
      until: "document.querySelectorAll('#stacks section.presentation').length === 2")
    XCTAssertNil(try tab.evaluate("window.__pwned"), "no script from the journal ran")
    XCTAssertEqual(try tab.evaluate("document.images.length") as? Int, 0)
    // The headings hold the title as text, exactly: the page's own quoting of it.
    let title = String(
      decoding: try JSONSerialization.data(
        withJSONObject: Self.hostileTitle, options: [.fragmentsAllowed]),
      as: UTF8.self)
    XCTAssertEqual(
      try tab.evaluate(
        """
        [...document.querySelectorAll('#stacks section.presentation h3')]
          .every((h) => h.textContent === 'presented: alert ' + JSON.stringify(\(title)))
        """) as? Bool, true)
    // The alert over #0 is drawn inside its card, the root's among the stacks.
    XCTAssertEqual(
      try tab.evaluate(
        "document.querySelectorAll('.card section.presentation[data-path=\"path[#0].alert\"]').length"
      ) as? Int, 1)
  }
}
