import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

@testable import StackJournalCLI

/// The cases of `Tests/Fixtures/stack-delta-corpus.json` run by the report page's
/// `applyChanges`, in headless Chromium: the page's script as the command embeds it, loaded by a
/// page that holds nothing else, given each case's stacks and delta in the form the command
/// writes them into a page (``StackRendering/stackJSON(_:)``, ``ReportPage/changesJSON(_:)``).
final class ReportCorpusTests: XCTestCase {
  func testThePagesApplyChangesFollowsTheCorpus() throws {
    guard HeadlessChromium.executable() != nil else {
      throw XCTSkip(
        "No Chromium: install Debian's `chromium` (.ci/run does) to run the page's tests.")
    }
    let corpus = try StackDeltaCorpus()
    let directory = try TemporaryDirectory(prefix: "ReportCorpusTests")
    defer { directory.remove() }
    try Data(ReportAssets.script.utf8).write(to: URL(fileURLWithPath: directory.path("report.js")))
    let page = directory.path("corpus.html")
    try Data(
      """
      <!doctype html><html><head><meta charset="utf-8"></head>
      <body><script src="report.js"></script></body></html>
      """.utf8
    ).write(to: URL(fileURLWithPath: page))
    let browser = try HeadlessChromium()
    defer { browser.close() }
    let tab = try browser.open(
      URL(fileURLWithPath: page), until: "typeof applyChanges === 'function'")

    func stacksJSON(_ stacks: [StackRecord]) -> String {
      JSONValue.array(stacks.map(StackRendering.stackJSON)).compact
    }
    let inputs = corpus.cases.map { item in
      "[\(stacksJSON(item.stacks)), \(ReportPage.changesJSON(item.delta).compact)]"
    }
    // Each case's outcome: the stacks after, or why the change was refused, and whether the
    // stacks given were left as they were.
    let script = """
      JSON.stringify([\(inputs.joined(separator: ",\n"))].map(([stacks, changes]) => {
        const before = JSON.stringify(stacks);
        try {
          return { result: applyChanges(stacks, changes), kept: JSON.stringify(stacks) === before };
        } catch (error) {
          return { refusal: String(error.message), kept: JSON.stringify(stacks) === before };
        }
      }))
      """
    let text = try XCTUnwrap(try tab.string(script))
    let outcomes = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    XCTAssertEqual(outcomes.count, corpus.cases.count)
    for (item, outcome) in zip(corpus.cases, outcomes) {
      XCTAssertEqual(outcome["kept"] as? Bool, true, "`\(item.name)` changed the stacks given")
      if let result = item.result {
        guard let after = outcome["result"] else {
          XCTFail("`\(item.name)` was refused (\(outcome["refusal"] ?? "")), expected to fit")
          continue
        }
        let expected = try JSONSerialization.jsonObject(with: Data(stacksJSON(result).utf8))
        XCTAssertEqual(after as? NSArray, expected as? NSArray, item.name)
      } else if let after = outcome["result"] {
        XCTFail("`\(item.name)` fit, leaving \(after); expected a refusal: \(item.refusal!)")
      }
    }
  }
}
