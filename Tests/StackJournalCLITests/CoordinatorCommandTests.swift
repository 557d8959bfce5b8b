import Foundation
import GRDB
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

/// A coordinator's journal, inspected by the built binary without the app's code: the routes
/// are drawn as stacks whose elements tell how each screen is shown.
final class CoordinatorCommandTests: CLITestCase {
  /// Records the Coordinators article's flow and a parent with a child coordinator into one file.
  func recordCoordinators() async throws -> String {
    let path = directory.path("coordinators.sqlite")
    let heads = try await recordCoordinators(at: path)
    XCTAssertEqual(heads.flow, 5)
    return path
  }

  func testShowDrawsEachRouteWithItsPresentationStyle() async throws {
    let path = try await recordCoordinators()
    let shown = try runCLI(["show", "flow", "--at", "3", "--db", path])
    XCTAssertEqual(shown.status, 0, shown.stderr)
    XCTAssertEqual(
      Array(shown.stdout.split(separator: "\n").dropFirst()),
      [
        "routes  4 routes",
        #"  #0  sheet (navigation)  home  {"id":0}"#,
        #"  #1  sheet (navigation)  numbersList  {"id":0,"numbers":[0,1,2,3]}"#,
        #"  #2  push                numberDetail  {"id":0,"number":42}"#,
        #"  #3  sheet               numberDetail  {"id":0,"number":84}"#,
      ])

    let json = try runCLI(["show", "flow", "--at", "3", "--db", path, "--json"]).jsonObject()
    let stack = try XCTUnwrap((json["stacks"] as? [[String: Any]])?.first)
    XCTAssertEqual(stack["path"] as? String, "routes")
    XCTAssertEqual(stack["kind"] as? String, "routes")
    let elements = try XCTUnwrap(stack["elements"] as? [[String: Any]])
    XCTAssertEqual(elements.map { $0["id"] as? Int }, [0, 1, 2, 3])
    XCTAssertEqual(elements.map { $0["case"] as? String }, ["sheet", "sheet", "push", "sheet"])
    let routes = elements.compactMap { $0["route"] as? [String: Any] }
    XCTAssertEqual(routes.map { $0["style"] as? String }, ["sheet", "sheet", "push", "sheet"])
    XCTAssertEqual(
      routes.map { $0["embedInNavigationView"] as? Bool }, [true, true, false, false])
    XCTAssertEqual(
      routes.map { $0["screen"] as? String },
      ["home", "numbersList", "numberDetail", "numberDetail"])
    XCTAssertEqual((elements[3]["state"] as? [String: Any])?["number"] as? Int, 84)
  }

  func testDiffDrawsRoutesThatWentBackAsPops() async throws {
    let path = try await recordCoordinators()
    // Sequence 4 sent goBackToRootTapped; its effect's updateRoutes is sequence 5.
    let text = try runCLI(["diff", "flow", "3", "5", "--db", path])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertEqual(
      Array(text.stdout.split(separator: "\n").dropFirst()),
      [
        "routes  (routes, 4 → 1)",
        #"  - #1 sheet (navigation)  numbersList  {"id":0,"numbers":[0,1,2,3]}"#,
        #"  - #2 push  numberDetail  {"id":0,"number":42}"#,
        #"  - #3 sheet  numberDetail  {"id":0,"number":84}"#,
      ])
    let json = try runCLI(["diff", "flow", "1", "2", "--db", path, "--json"]).jsonObject()
    let stack = try XCTUnwrap((json["stacks"] as? [[String: Any]])?.first)
    let pushed = try XCTUnwrap(stack["pushed"] as? [[String: Any]])
    XCTAssertEqual(pushed.map { $0["id"] as? Int }, [2])
    XCTAssertEqual((pushed[0]["route"] as? [String: Any])?["style"] as? String, "push")

    // The journal recorded the pops as pops: what the entry changed, not the whole routes.
    let log = try runCLI(["log", "flow", "--db", path])
    XCTAssertEqual(log.status, 0, log.stderr)
    let lastLine = try XCTUnwrap(log.stdout.split(separator: "\n").last)
    XCTAssertTrue(lastLine.contains("router.updateRoutes"), String(lastLine))
    XCTAssertTrue(lastLine.contains("  routes: -#1 -#2 -#3  "), String(lastLine))
  }

  func testNestedCoordinatorIsDrawnUnderItsPath() async throws {
    let path = try await recordCoordinators()
    let shown = try runCLI(["show", "parent", "--db", path])
    XCTAssertEqual(shown.status, 0, shown.stderr)
    XCTAssertEqual(
      Array(shown.stdout.split(separator: "\n").dropFirst()),
      [
        "routes  2 routes",
        #"  #0  sheet (navigation)  home  {"id":0}"#,
        #"  #1  push                numbersFlow  {"id":0,"routes":[{"sheet":{"embedInNavigationView":false,"screen":{"numbersList":{"_0":{"id":0,"numbers":[0,1,2,3]}}}}},{"push":{"screen":{"numberDetail":{"_0":{"id":0,"number":7}}}}}]}"#,
        "routes[#1].numbersFlow.routes  2 routes",
        #"  #0  sheet  numbersList  {"id":0,"numbers":[0,1,2,3]}"#,
        #"  #1  push   numberDetail  {"id":0,"number":7}"#,
      ])
    let verify = try runCLI(["verify", "--db", path])
    XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
  }

  /// A stored route whose screen case carries control codes reaches the terminal escaped.
  func testAScreenCaseWithControlCodesIsShownEscaped() async throws {
    let path = try await recordCoordinators()
    let queue = try DatabaseQueue(path: path)
    try await queue.write { db in
      let stored = try String.fetchOne(
        db, sql: "SELECT stacks FROM snapshots WHERE session = 'flow' AND sequence = 0")
      var stacks = try JSONDecoder().decode(
        [StackRecord].self, from: Data(try XCTUnwrap(stored).utf8))
      stacks[0].elements[0].state =
        #"{"sheet":{"embedInNavigationView":true,"screen":{"\u001b[2Jevil":{"_0":{}}}}}"#
      try db.execute(
        sql: "UPDATE snapshots SET stacks = ? WHERE session = 'flow' AND sequence = 0",
        arguments: [String(decoding: try JSONEncoder().encode(stacks), as: UTF8.self)])
    }
    try queue.close()
    let shown = try runCLI(["show", "flow", "--at", "0", "--db", path])
    XCTAssertEqual(shown.status, 0, shown.stderr)
    XCTAssertFalse(shown.stdout.unicodeScalars.contains("\u{1B}"), shown.stdout)
    XCTAssertTrue(
      shown.stdout.contains(#"#0  sheet (navigation)  "\u001b[2Jevil"  {}"#), shown.stdout)
  }
}
