import Foundation
import StackStorage

extension Benchmark {
  /// Records `--count` actions at NORMAL on one `RecordingStore` at each of `--depths`, and
  /// prints nothing else: run under `valgrind --tool=callgrind` twice with different counts
  /// (`benchmarks/append-instructions.sh` does) to get instructions per append. `--plain` sends
  /// the same actions to a plain `Store` with no journal instead, the baseline of what recording
  /// adds; `--state` picks the feature. With `--keep`, the journals stay
  /// (`benchmarks/append-pages.py` matches the pages an append writes to the tables they belong
  /// to).
  static let instructions = Benchmark(
    name: "instructions",
    summary: "records --count actions at NORMAL, for callgrind (benchmarks/append-instructions.sh)"
  ) { options in
    let directory =
      try options.keep.map(ScratchDirectory.init(keepingAt:))
      ?? ScratchDirectory(prefix: "stackjournal-bench")
    defer { directory.remove() }
    for state in options.states {
      for depth in options.depths {
        let sizes: (state: Int, screens: Int, smallest: Int, average: Int, largest: Int)
        switch state {
        case .article:
          sizes = try await record(RecordWorkload.self, depth: depth, options: options) {
            directory.path("depth-\(depth).sqlite")
          }
        case .shop:
          sizes = try await record(ShopWorkload.self, depth: depth, options: options) {
            directory.path("shop-depth-\(depth).sqlite")
          }
        case .shopDraws:
          sizes = try await record(ShopDrawsWorkload.self, depth: depth, options: options) {
            directory.path("shop-draws-depth-\(depth).sqlite")
          }
        case .shopAlert:
          sizes = try await record(
            ShopAlertsWorkload<OneAlertOverTheStack>.self, depth: depth, options: options
          ) {
            directory.path("shop-alert-depth-\(depth).sqlite")
          }
        case .shopAlerts:
          sizes = try await record(
            ShopAlertsWorkload<AlertOverEveryProduct>.self, depth: depth, options: options
          ) {
            directory.path("shop-alerts-depth-\(depth).sqlite")
          }
        }
        let store = options.plain ? "a plain Store" : "a RecordingStore"
        print(
          "instructions: \(state) at depth \(depth), \(options.count) actions sent to \(store); "
            + "then \(sizes.screens) screens of \(sizes.smallest)–\(sizes.largest) B of JSON "
            + "(\(sizes.average) B on average), state \(sizes.state) B")
      }
    }
  }

  private static func record<Workload: BenchWorkload>(
    _ workload: Workload.Type, depth: Int, options: BenchmarkOptions, path: () -> String
  ) async throws -> (state: Int, screens: Int, smallest: Int, average: Int, largest: Int) {
    let journal =
      options.plain
      ? nil : try SQLiteJournal(path: path(), options: .init(durability: .normal))
    let run = try await WorkloadRun<Workload>(
      journal: journal, depth: depth, session: "bench", seed: RecordWorkload.defaultSeed)
    try await run.send(options.count)
    return try run.stateSizes()
  }
}
