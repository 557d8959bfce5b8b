import Foundation
import StackNavigation
import StackRestoration
import StackStorage

extension Benchmark {
  /// What a `RecordingStore` user pays per action, against a raw SQLite commit of the same bytes
  /// and against saving the whole state after every action, in the same run.
  static let record = Benchmark(
    name: "record",
    summary: "RecordingStore (FULL, NORMAL) vs raw SQLite commits vs whole-state saves (--depths)"
  ) { options in
    for depth in options.depths {
      try await RecordComparison(depth: depth, count: options.count).run()
    }
  }
}

/// A `RecordingStore` of ``ArticleApp`` on its own journal file, driven by a ``RecordWorkload``.
final class RecordingRun: @unchecked Sendable {
  let path: String
  let store: RecordingStore<ArticleApp.State, ArticleApp.Action>
  private var workload: RecordWorkload
  private var state: ArticleApp.State

  convenience init(
    path: String, durability: Durability, depth: Int, session: SessionID = "bench"
  ) async throws {
    try await self.init(
      journal: SQLiteJournal(path: path, options: .init(durability: durability)), path: path,
      depth: depth, session: session, seed: RecordWorkload.defaultSeed)
  }

  init(journal: any JournalBackend, path: String, depth: Int, session: SessionID, seed: UInt64)
    async throws
  {
    self.path = path
    var workload = RecordWorkload(depth: depth, seed: seed)
    let state = workload.initialState()
    self.store = try await RecordingStore.open(session: session, journal: journal, initialState: state) {
      ArticleApp()
    }
    self.workload = workload
    self.state = state
  }

  /// Sends `count` actions, each once the previous one is journaled.
  func send(_ count: Int) async throws {
    for _ in 0..<count {
      try await store.send(workload.nextAction(for: state))
      state = await store.state
    }
  }

  /// The current state, and the average size of its elements' JSON.
  func stateSizes() throws -> (state: Int, element: Int) {
    let encoder = JSONEncoder()
    let state = try encoder.encode(self.state).count
    let elements = try self.state.path.map { try encoder.encode($0).count }
    return (state, elements.reduce(0, +) / max(1, elements.count))
  }
}

/// A plain `Store` of ``ArticleApp`` that saves the whole state after every action.
final class WholeStateRun: @unchecked Sendable {
  let store: Store<ArticleApp.State, ArticleApp.Action>
  private var workload: RecordWorkload
  private var state: ArticleApp.State

  init(depth: Int, save: @escaping @Sendable (ArticleApp.State) throws -> Void) {
    var workload = RecordWorkload(depth: depth)
    let state = workload.initialState()
    self.store = Store(
      initialState: state, reducer: { ArticleApp() },
      observer: { transition in try save(transition.stateAfter) })
    self.workload = workload
    self.state = state
  }

  func send(_ count: Int) async throws {
    for _ in 0..<count {
      try await store.send(workload.nextAction(for: state))
      state = await store.state
    }
  }
}

struct RecordComparison {
  let depth: Int
  let count: Int

  func run() async throws {
    let directory = try ScratchDirectory(prefix: "stackjournal-bench")
    defer { directory.remove() }
    let full = try await RecordingRun(
      path: directory.path("full.sqlite"), durability: .full, depth: depth)
    let normal = try await RecordingRun(
      path: directory.path("normal.sqlite"), durability: .normal, depth: depth)
    let rawFull = try RawCommit(path: directory.path("raw-full.sqlite"), synchronous: "FULL")
    let rawNormal = try RawCommit(
      path: directory.path("raw-normal.sqlite"), synchronous: "NORMAL")
    let rawStackFull = try RawCommit(
      path: directory.path("raw-stack-full.sqlite"), synchronous: "FULL", stackRows: true)
    let rawStackNormal = try RawCommit(
      path: directory.path("raw-stack-normal.sqlite"), synchronous: "NORMAL", stackRows: true)
    let file = WholeStateFile(path: directory.path("state.json"))
    let fileRun = WholeStateRun(depth: depth) { try file.save($0) }
    let row = try WholeStateRow(path: directory.path("state.sqlite"))
    let rowRun = WholeStateRun(depth: depth) { try row.save($0, session: "bench") }
    // The app alone: the same actions through a plain `Store`, nothing saved.
    let appRun = WholeStateRun(depth: depth) { _ in }

    var costs = (
      full: Cost(), normal: Cost(), rawFull: Cost(), rawNormal: Cost(), file: Cost(), row: Cost(),
      app: Cost(), rawStackFull: Cost(), rawStackNormal: Cost()
    )
    var rowBytes = 0
    var rowCount = 0
    for range in Rounds.ranges(total: count) {
      let actions = range.count
      try await costs.full.measure(actions: actions) { try await full.send(actions) }
      let fullRows = try BaselineRow.read(full.path, session: "bench", sequences: range)
      try await costs.rawFull.measure(actions: fullRows.count) { try rawFull.insert(fullRows) }
      try await costs.rawStackFull.measure(actions: fullRows.count) {
        try rawStackFull.insert(fullRows)
      }
      try await costs.normal.measure(actions: actions) { try await normal.send(actions) }
      let normalRows = try BaselineRow.read(normal.path, session: "bench", sequences: range)
      try await costs.rawNormal.measure(actions: normalRows.count) {
        try rawNormal.insert(normalRows)
      }
      try await costs.rawStackNormal.measure(actions: normalRows.count) {
        try rawStackNormal.insert(normalRows)
      }
      try await costs.file.measure(actions: actions) { try await fileRun.send(actions) }
      try await costs.row.measure(actions: actions) { try await rowRun.send(actions) }
      try await costs.app.measure(actions: actions) { try await appRun.send(actions) }
      rowBytes += fullRows.map(\.bytes).reduce(0, +)
      rowCount += fullRows.count
    }

    let sizes = try full.stateSizes()
    Report.title(
      "record at depth \(depth) ± 3: \(count) actions (50% element changes, 25% pushes, 25% "
        + "pops); elements \(sizes.element) B, state \(sizes.state) B, journal row "
        + "\(rowBytes / max(1, rowCount)) B on average")
    func line(_ label: String, _ cost: Cost) {
      Report.rate(label, cost: cost)
    }
    line("RecordingStore, FULL", costs.full)
    line("raw SQLite WAL commit of the same rows, FULL", costs.rawFull)
    line("  the same, with the stack rows they change", costs.rawStackFull)
    line("RecordingStore, NORMAL", costs.normal)
    line("raw SQLite WAL commit of the same rows, NORMAL", costs.rawNormal)
    line("  the same, with the stack rows they change", costs.rawStackNormal)
    line("whole state as a JSON file (temp + fsync + rename)", costs.file)
    line("whole state as one SQLite row (GRDB, FULL)", costs.row)
    line("the app alone: a plain Store, nothing saved", costs.app)
    let fasterSave = max(costs.file.rate, costs.row.rate)
    let fewerBytes = min(costs.file.bytesPerAction, costs.row.bytesPerAction)
    Report.ratio("FULL / raw FULL  (target ≥ 0.8)", costs.full.rate / costs.rawFull.rate)
    Report.ratio("FULL / faster whole-state save  (target ≥ 2)", costs.full.rate / fasterSave)
    Report.ratio("NORMAL / raw NORMAL  (target ≥ 0.3)", costs.normal.rate / costs.rawNormal.rate)
    // An action of a store that journals runs the app's reducer and then commits, one after the
    // other: even a journal that cost nothing beyond the raw commit would take both times.
    Report.ratio(
      "ceiling of FULL / raw FULL: app + raw commit",
      Self.ceiling(app: costs.app.rate, commit: costs.rawFull.rate))
    Report.ratio(
      "ceiling of NORMAL / raw NORMAL: app + raw commit",
      Self.ceiling(app: costs.app.rate, commit: costs.rawNormal.rate))
    Report.ratio(
      "bytes: smaller whole-state save / FULL  (target ≥ 2)",
      Double(fewerBytes) / Double(max(1, costs.full.bytesPerAction)))
    func bytes(_ cost: Cost, over baseline: Cost) -> Double {
      Double(cost.bytesPerAction) / Double(max(1, baseline.bytesPerAction))
    }
    Report.ratio("bytes: FULL / raw FULL  (target ≤ 1.5)", bytes(costs.full, over: costs.rawFull))
    // Invariant 3 has every entry written with the stack rows it changes: what a raw commit
    // of both writes is the least any journal keeping it writes.
    Report.ratio(
      "bytes: raw FULL with stack rows / raw FULL", bytes(costs.rawStackFull, over: costs.rawFull))
    Report.ratio(
      "bytes: FULL / raw FULL with stack rows", bytes(costs.full, over: costs.rawStackFull))
    Report.ratio(
      "FULL / raw FULL with stack rows", costs.full.rate / costs.rawStackFull.rate)
    Report.ratio(
      "NORMAL / raw NORMAL with stack rows", costs.normal.rate / costs.rawStackNormal.rate)
  }

  /// The most a store that journals can reach against the raw commit, in actions per second:
  /// what one action takes when the app's reducer (at `app` actions/s) and a raw commit (at
  /// `commit` per second) run one after the other, and recording adds nothing else.
  static func ceiling(app: Double, commit: Double) -> Double {
    (1 / commit) / (1 / app + 1 / commit)
  }
}
