import StackJournalCore
import Testing

/// The path grammar, parsed and printed in one place: every stored form reads back to the same
/// components and prints back to the same text.
struct StackPathTests {
  static let paths: [(String, [StackPath.Component])] = [
    ("", []),
    ("path", [.key("path")]),
    ("tabs[1].path", [.key("tabs"), .index(1), .key("path")]),
    (#"sheets["42"].path"#, [.key("sheets"), .key("42"), .key("path")]),
    (
      "tabs[1].path[#3].counter.path",
      [.key("tabs"), .index(1), .key("path"), .element(3), .key("counter"), .key("path")]
    ),
    ("routes[#2].child.routes", [.key("routes"), .element(2), .key("child"), .key("routes")]),
    (#"["7"]"#, [.key("7")]),
  ]

  @Test(arguments: paths)
  func parsesAndPrintsBack(_ path: String, _ components: [StackPath.Component]) {
    #expect(StackPath.components(of: path) == components)
    #expect(StackPath.text(components) == path)
  }

  @Test func aBracketOfNoKnownFormIsSkipped() {
    #expect(StackPath.components(of: "path[x].next") == [.key("path"), .key("next")])
  }
}
