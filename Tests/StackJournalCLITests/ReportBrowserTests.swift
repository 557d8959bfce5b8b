import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

/// `stackjournal report`'s page opened in headless Chromium, driven through its DevTools
/// protocol: the stacks it draws, its keys, and what it does with hostile journal contents.
///
/// Skipped when no Chromium is installed; `.ci/run` installs Debian's `chromium`.
final class ReportBrowserTests: CLITestCase {
  private var browser: HeadlessChromium!

  override func setUpWithError() throws {
    try super.setUpWithError()
    guard HeadlessChromium.executable() != nil else {
      throw XCTSkip(
        "No Chromium: install Debian's `chromium` (.ci/run does) to run the page's tests.")
    }
    browser = try HeadlessChromium()
  }

  override func tearDown() {
    browser?.close()
    browser = nil
    super.tearDown()
  }

  /// Writes the page of a session and opens it at `hash`.
  private func open(
    _ session: String, db: String, hash: String = "", arguments: [String] = []
  ) throws -> HeadlessChromium.Tab {
    let page = directory.path("\(UUID().uuidString).html")
    let result = try runCLI(["report", session, "--db", db, "-o", page] + arguments)
    XCTAssertEqual(result.status, 0, result.stderr)
    var url = URL(fileURLWithPath: page).absoluteString
    if !hash.isEmpty { url += "#" + hash }
    return try browser.open(
      URL(string: url)!, until: "document.documentElement.dataset.readyMs !== undefined")
  }

  /// Selects a moment through the address, as a link to `page.html#seq=K` does.
  private func select(_ sequence: Int, in tab: HeadlessChromium.Tab) throws {
    _ = try tab.evaluate("location.hash = '#seq=\(sequence)'")
    try tab.wait(until: "\(Self.stateJSON).sequence === \(sequence)")
  }

  private static let stateJSON = "JSON.parse(document.getElementById('state-json').textContent)"

  /// The stacks as the page drew them: every stack section (nested ones too), its cards bottom
  /// first, each card's ID, case and the state in its expandable part.
  private static let drawnStacks = """
    JSON.stringify([...document.querySelectorAll(
      '#stacks section.stack[data-path]:not(.presentation)')].map((s) => {
      const info = s.querySelector(':scope > .stack-head .stack-info').textContent;
      const cards = [...s.querySelector(':scope > .deck').children]
        .filter((c) => c.classList.contains('card') && !c.classList.contains('popped'));
      const next = /next ID #(\\d+)/.exec(info);
      return {
        path: s.dataset.path,
        kind: next ? 'stack' : 'routes',
        nextID: next ? Number(next[1]) : 2 ** 53,
        elements: cards.reverse().map((c) => {
          const name = c.querySelector(':scope > .card-head .card-case').textContent;
          return {
            id: Number(c.dataset.id),
            case: name === '(no case)' ? null : name,
            state: JSON.parse(c.querySelector(':scope > details pre').textContent),
          };
        }),
      };
    }).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
    """

  /// What is presented as the page drew it: each presentation's path, its heading and where it
  /// says it is.
  private static let drawnPresentations = """
    JSON.stringify([...document.querySelectorAll('#stacks section.presentation')].map((s) => ({
      path: s.dataset.path,
      what: s.querySelector(':scope > .stack-head .stack-path').textContent,
      where: s.querySelector(':scope > .stack-head .stack-info').textContent,
    })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
    """

  private func show(_ session: String, db: String, at sequence: Int) throws -> NSArray {
    try showJSON(session, db: db, at: sequence).stacks
  }

  private func showJSON(_ session: String, db: String, at sequence: Int) throws -> (
    stacks: NSArray, presentations: [[String: Any]]
  ) {
    let result = try runCLI(["show", session, "--at", String(sequence), "--db", db, "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let object = try result.jsonObject()
    return (
      try XCTUnwrap(object["stacks"] as? NSArray),
      try XCTUnwrap(object["presentations"] as? [[String: Any]])
    )
  }

  private func parse(_ text: String?) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(text).utf8))
  }

  func testTheStacksDrawnAtEverySequenceAreThoseShowPrints() throws {
    // Snapshots every 3 entries: `show` starts from them, the page from sequence 0.
    let (path, session) = try makeDemo(snapshotInterval: 3, actions: 50)
    let head = try XCTUnwrap(
      try runCLI(["show", session, "--db", path, "--json"]).jsonObject()["sequence"] as? Int)
    let tab = try open(session, db: path)
    XCTAssertEqual(try tab.string("document.title"), "StackJournal · \(session)")
    var compared = 0
    var presentedAt = 0
    for sequence in 0...head {
      try select(sequence, in: tab)
      let (expected, presentations) = try showJSON(session, db: path, at: sequence)
      let state = try XCTUnwrap(
        try parse(try tab.string("JSON.stringify(\(Self.stateJSON))")) as? NSDictionary)
      let rebuilt = try XCTUnwrap(state["stacks"] as? [NSDictionary])
      XCTAssertEqual(
        rebuilt.filter { $0["kind"] as? String != "presentation" } as NSArray, expected,
        "rebuilt stacks at \(sequence)")
      let drawn = try XCTUnwrap(try parse(try tab.string(Self.drawnStacks)) as? NSArray)
      XCTAssertEqual(drawn, expected, "cards drawn at \(sequence)")
      // What is presented: where `show` says, titled as it says.
      let drawnPresented = try XCTUnwrap(
        try parse(try tab.string(Self.drawnPresentations)) as? [[String: String]])
      XCTAssertEqual(
        drawnPresented.map { $0["path"] }, presentations.map { $0["path"] as? String },
        "presentations drawn at \(sequence)")
      for (drawn, shown) in zip(drawnPresented, presentations) {
        if let title = shown["title"] as? String {
          XCTAssertTrue(drawn["what"]?.contains(title) == true, "\(drawn) at \(sequence)")
        }
        if let over = shown["over"] as? [String: Any], let id = over["id"] as? Int {
          XCTAssertTrue(
            drawn["where"]?.hasPrefix("over #\(id) of \(over["stack"] ?? "")") == true,
            "\(drawn) at \(sequence)")
        }
      }
      if !presentations.isEmpty { presentedAt += 1 }
      compared += 1
    }
    XCTAssertEqual(compared, head + 1)
    XCTAssertGreaterThan(presentedAt, 0, "the demo's alert was open at some moments")
    XCTAssertGreaterThan(head, 50)
  }

  func testAPartOfTheSessionStartsFromTheStacksAtItsFirstSequence() throws {
    let (path, session) = try makeDemo(snapshotInterval: 4, actions: 20)
    let tab = try open(session, db: path, hash: "seq=12", arguments: ["--from", "9", "--to", "20"])
    try tab.wait(until: "\(Self.stateJSON).sequence === 12")
    for sequence in [9, 10, 15, 20] {
      try select(sequence, in: tab)
      let drawn = try XCTUnwrap(try parse(try tab.string(Self.drawnStacks)) as? NSArray)
      XCTAssertEqual(drawn, try show(session, db: path, at: sequence), "at \(sequence)")
    }
    // A moment before the range: the page stays at its first moment.
    _ = try tab.evaluate("location.hash = '#seq=3'")
    try tab.wait(until: "\(Self.stateJSON).sequence === 9")
  }

  func testTheDemoEntriesAreHighlightedAsPushedPoppedAndChanged() throws {
    let (path, session) = try makeDemo()
    let tab = try open(session, db: path, hash: "seq=2")
    let roles = """
      JSON.stringify([...document.querySelectorAll('#stacks .card')].map((c) =>
        c.dataset.id + ':' + (c.classList.contains('pushed') ? 'pushed'
          : c.classList.contains('popped') ? 'popped'
          : c.classList.contains('changed') ? 'changed' : '-')))
      """
    XCTAssertEqual(try tab.string(roles), #"["3:pushed","2:-","1:-","0:-"]"#)
    XCTAssertEqual(try tab.string("document.getElementById('action-type').textContent"),
      "pushCounterTapped")
    try select(4, in: tab)
    XCTAssertEqual(try tab.string(roles), #"["3:changed","2:-","1:-","0:-"]"#)
    XCTAssertEqual(
      try tab.string("document.querySelector('.card.changed .fields li').textContent"),
      "count 4 → 5")
    try select(9, in: tab)
    XCTAssertEqual(
      try tab.string(roles), #"["4:popped","2:popped","1:popped","0:-"]"#,
      "the popped elements stay visible as ghosts, top first")
    XCTAssertTrue(
      try XCTUnwrap(try tab.string("document.getElementById('action-payload').textContent"))
        .contains("\"popFrom\""))
    XCTAssertEqual(
      try tab.string("document.getElementById('action-dump').textContent"),
      ".path(.popFrom(id: #1))", "the action as CustomDump prints it, above its JSON")
  }

  func testTheKeyboardMovesTheSelection() throws {
    let (path, session) = try makeDemo()
    let tab = try open(session, db: path, hash: "seq=0")
    let position = "document.getElementById('position').textContent"
    func expect(_ sequence: Int, line: UInt = #line) throws {
      try tab.wait(until: "\(Self.stateJSON).sequence === \(sequence)", timeout: 5)
      XCTAssertEqual(try tab.string(position), "\(sequence) / 10", line: line)
      XCTAssertEqual(
        try tab.string("document.querySelector('.row.selected').dataset.seq"), String(sequence),
        "the entry list follows", line: line)
    }
    try tab.press("ArrowRight")
    try tab.press("ArrowRight")
    try tab.press("ArrowRight")
    try expect(3)
    try tab.press("ArrowLeft")
    try expect(2)
    try tab.press("End")
    try expect(10)
    try tab.press("Home")
    try expect(0)
    try tab.press("ArrowRight", shift: true)
    try expect(10)
    XCTAssertEqual(try tab.string("location.hash"), "#seq=10", "the address names the moment")

    // With a filter, the keys move between entries of that type only.
    _ = try tab.evaluate(
      """
      (() => {
        const select = document.getElementById('type-filter');
        select.value = [...select.options].find((o) => o.text.startsWith('path.popFrom ')).value;
        select.dispatchEvent(new Event('change'));
        select.blur();
      })()
      """)
    try tab.press("Home")
    try tab.wait(until: "\(Self.stateJSON).sequence === 0", timeout: 5)
    try tab.press("ArrowRight")
    try expect(5)
    try tab.press("ArrowRight")
    try tab.wait(until: "\(Self.stateJSON).sequence === 9", timeout: 5)
    XCTAssertEqual(try tab.string("document.getElementById('timeline-count').textContent"),
      "2 of 10 match")
  }

  func testHostileJournalContentsAreTextAndNothingRuns() async throws {
    let path = try await HostileJournal.make(in: directory)
    let tab = try open(HostileJournal.session, db: path, hash: "seq=1")
    XCTAssertNil(try tab.evaluate("window.__pwned"), "no script from the journal ran")
    XCTAssertEqual(try tab.string("document.title"), "StackJournal · \(HostileJournal.session)")
    XCTAssertEqual(try tab.evaluate("document.images.length") as? Int, 0)
    XCTAssertEqual(try tab.evaluate("document.scripts.length") as? Int, 2)
    XCTAssertEqual(
      try tab.evaluate(
        "document.querySelectorAll('#page-header :is(svg, a, iframe), #layout :is(svg, a, iframe)')"
          + ".length") as? Int, 0, "no element from the journal's texts")
    XCTAssertEqual(
      try tab.evaluate("document.querySelectorAll('[onerror], [onload], [onmouseover]').length")
        as? Int, 0)
    XCTAssertEqual(
      try tab.string("document.getElementById('session-name').textContent"),
      HostileJournal.session)
    XCTAssertEqual(
      try tab.string("document.querySelector('.card-case').textContent"), HostileJournal.caseName)
    XCTAssertEqual(
      try tab.string("document.querySelector('.stack-path').textContent"), HostileJournal.stackKey)
    let payload = try XCTUnwrap(
      try tab.string("document.getElementById('action-payload').textContent"))
    XCTAssertTrue(payload.contains("</script><script>document.title='pwned'"), payload)
    XCTAssertTrue(payload.contains(HostileJournal.link), payload)
    let dump = try XCTUnwrap(
      try tab.string("document.getElementById('action-dump').textContent"))
    XCTAssertTrue(dump.contains("</script><script>document.title='pwned'"), dump)
    XCTAssertTrue(
      try XCTUnwrap(try tab.string("document.getElementById('action-type').textContent"))
        .hasPrefix("push.</script><b"))
    // Moving through the history draws the hostile texts again; still nothing runs.
    try tab.press("ArrowRight")
    try tab.wait(until: "\(Self.stateJSON).sequence === 2", timeout: 5)
    try tab.press("Home")
    try tab.wait(until: "\(Self.stateJSON).sequence === 0", timeout: 5)
    _ = try tab.evaluate(
      "new Promise((done) => requestAnimationFrame(() => setTimeout(done, 100)))")
    XCTAssertNil(try tab.evaluate("window.__pwned"))
    XCTAssertEqual(try tab.evaluate("document.images.length") as? Int, 0)

    // The policy is in force: markup slipped in anyway would not run its handlers.
    let violations = try tab.evaluate(
      """
      new Promise((done) => {
        const seen = [];
        document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
        document.body.insertAdjacentHTML(
          'beforeend', '<img src="x" onerror="window.__pwned = &quot;slipped&quot;">');
        setTimeout(() => done(seen), 300);
      })
      """) as? [String]
    XCTAssertNil(try tab.evaluate("window.__pwned"), "the inline handler was blocked")
    XCTAssertTrue(
      violations?.contains { $0.hasPrefix("script-src") } == true, "\(violations ?? [])")
  }

  func testNestedStacksAreDrawnInsideTheirElement() async throws {
    struct Folder: Codable, Equatable {
      var name: String
      var path = StackState<Int>()
    }
    let db = directory.path("nested.sqlite")
    do {
      let journal = try SQLiteJournal(path: db)
      var root = StackState<Folder>([Folder(name: "inbox")])
      _ = try await journal.createSession(
        "nested", initial: StateEncoding.encode(["path": root]), version: 1)
      var sequence: Int64 = 0
      func record(_ type: String) async throws {
        sequence = try await journal.append(
          session: "nested", expectedSequence: sequence,
          JournalEntryDraft(
            type: type, version: 1, payload: Data("{}".utf8),
            state: try StateEncoding.encode(["path": root])))
      }
      root[id: 0]?.path.append(7)
      try await record("inbox.push")
      root.append(Folder(name: "archive"))
      try await record("push")
      root[id: 1]?.path.append(8)
      root[id: 1]?.path.append(9)
      try await record("archive.push")
      root[id: 1]?.name = "old"
      try await record("rename")
      root.pop(from: 1)
      try await record("pop")
    }
    let tab = try open("nested", db: db, hash: "seq=3")
    for sequence in 0...5 {
      try select(sequence, in: tab)
      let drawn = try XCTUnwrap(try parse(try tab.string(Self.drawnStacks)) as? NSArray)
      XCTAssertEqual(drawn, try show("nested", db: db, at: sequence), "at \(sequence)")
    }
    try select(3, in: tab)
    XCTAssertEqual(
      try tab.evaluate(
        """
        [...document.querySelectorAll('#stacks > .stack > .deck > .card')].map((card) =>
          card.dataset.id + ':' + [...card.querySelectorAll(':scope > .nested > .stack')]
            .map((s) => s.dataset.path + '=' + [...s.querySelectorAll(':scope > .deck > .card')]
              .map((c) => c.dataset.id).join(',')).join(' '))
        """) as? [String],
      ["1:path[#1].path=1,0", "0:path[#0].path=0"],
      "each nested stack inside the card of its element, top first")
    try select(4, in: tab)
    XCTAssertEqual(
      try tab.string("document.querySelector('.card.changed .fields li').textContent"),
      #"name "archive" → "old""#)
  }

  func testPausesInTimeAreMarkedAndTimesShowOnHover() async throws {
    let db = directory.path("paused.sqlite")
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    // Entries 1…4 a quarter of a second apart, then 5 after a pause of 90 s, then 6.
    let offsets = [0.25, 0.5, 0.75, 1.0, 91.0, 91.25]
    try await recordPushes("paused", at: db, start: t0, offsets: offsets)
    let tab = try open("paused", db: db)
    XCTAssertEqual(
      try tab.evaluate("[...document.querySelectorAll('.row.gap')].map((r) => r.dataset.seq)")
        as? [String], ["5"], "the one long pause is marked")
    XCTAssertEqual(
      try tab.string("document.querySelector('.row.gap .dt').textContent"), "+1.5 min")
    XCTAssertEqual(
      try tab.string("document.querySelector('.row[data-seq=\"5\"]').title.split('\\n')[0]"),
      "2023-11-14T22:14:51.000Z", "the entry's time on hover")
  }

  func testPrintingShowsTheMomentWithoutTheControls() throws {
    let (path, session) = try makeDemo()
    let tab = try open(session, db: path, hash: "seq=8")
    try tab.command("Emulation.setEmulatedMedia", ["media": "print"])
    let display = { (id: String) in
      try tab.string("getComputedStyle(document.getElementById('\(id)')).display")
    }
    XCTAssertEqual(try display("controls"), "none")
    XCTAssertEqual(try display("timeline"), "none")
    XCTAssertNotEqual(try display("stacks"), "none")
    let pdf = try tab.command("Page.printToPDF", ["printBackground": true])
    let bytes = try XCTUnwrap((pdf["data"] as? String).flatMap { Data(base64Encoded: $0) })
    XCTAssertEqual(bytes.prefix(5), Data("%PDF-".utf8))
  }

  func testTheHeaderShowsMetadataAndForks() throws {
    let (path, session) = try makeDemo()
    do {
      let journal = try SQLiteJournal(path: path)
      let stacks = try journal.stacks(session: SessionID(session), at: 5)
      _ = try journal.createSession(
        "demo-1-b", initial: EncodedState(json: Data("{}".utf8), stacks: stacks), version: 1,
        forkedFrom: (SessionID(session), 5))
    }
    let parent = try open(session, db: path)
    let header = try XCTUnwrap(
      try parent.string("document.getElementById('page-header').innerText"))
    XCTAssertTrue(header.contains("1 fork"), header)
    XCTAssertEqual(
      try parent.string("document.querySelector('#session-extra details:nth-of-type(2) pre')"
        + ".textContent"), "demo-1-b from sequence 5")
    XCTAssertEqual(
      try parent.string("document.querySelector('#session-extra details pre').textContent"),
      "{\n  \"source\": \"stackjournal demo\"\n}", "the metadata")
    let child = try open("demo-1-b", db: path)
    XCTAssertTrue(
      try XCTUnwrap(try child.string("document.getElementById('session-facts').textContent"))
        .contains("forked fromdemo-1 at sequence 5"))
  }

  func testACoordinatorsRoutesAreRebuiltAsShowPrintsThem() async throws {
    let db = directory.path("coordinators.sqlite")
    let heads = try await recordCoordinators(at: db)
    for (session, head) in [("flow", heads.flow), ("parent", heads.parent)] {
      let tab = try open(session, db: db)
      for sequence in 0...Int(head) {
        try select(sequence, in: tab)
        let expected = try show(session, db: db, at: sequence)
        let state = try XCTUnwrap(
          try parse(try tab.string("JSON.stringify(\(Self.stateJSON))")) as? NSDictionary)
        XCTAssertEqual(state["stacks"] as? NSArray, expected, "\(session) at \(sequence)")
      }
    }
    let tab = try open("flow", db: db, hash: "seq=3")
    XCTAssertEqual(
      try tab.string("document.querySelector('#stacks .stack-info').textContent"), "4 routes")
    XCTAssertEqual(
      try tab.evaluate(
        "[...document.querySelectorAll('#stacks .card')].map((c) => c.dataset.id + ' ' + "
          + "c.querySelector('.card-case').textContent + ' ' + "
          + "c.querySelector('.card-route').textContent)") as? [String],
      [
        "3 sheet → numberDetail", "2 push → numberDetail", "1 sheet (navigation) → numbersList",
        "0 sheet (navigation) → home",
      ])
  }

  func testThePageFitsAPhoneWidthWindow() throws {
    let (path, session) = try makeDemo()
    let tab = try open(session, db: path, hash: "seq=8")
    try tab.resize(width: 390, height: 844)
    _ = try tab.evaluate(
      "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    XCTAssertEqual(
      try tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth") as? Bool,
      true, "nothing wider than the window")
    XCTAssertEqual(
      try tab.evaluate(
        "document.getElementById('timeline').getBoundingClientRect().top > "
          + "document.getElementById('moment').getBoundingClientRect().top") as? Bool,
      true, "one column: the entries under the moment")
  }
}
