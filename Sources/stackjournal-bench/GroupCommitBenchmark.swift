import Foundation
import StackRestoration
import StackStorage

extension Benchmark {
  /// Concurrent `RecordingStore`s, one session each, on one group-commit journal, against one
  /// raw SQLite writer committing the same rows one transaction each at FULL.
  static let groupCommit = Benchmark(
    name: "groupcommit",
    summary: "--writers RecordingStores on a group-commit journal vs one raw FULL writer"
  ) { options in
    let directory = try ScratchDirectory(prefix: "stackjournal-bench")
    defer { directory.remove() }
    let writers = options.writers
    let depth = options.depths.first ?? 20

    func stores(_ durability: Durability, file: String) async throws
      -> (SQLiteJournal, [RecordingRun])
    {
      let path = directory.path(file)
      let journal = try SQLiteJournal(path: path, options: .init(durability: durability))
      var runs: [RecordingRun] = []
      for writer in 0..<writers {
        runs.append(
          try await RecordingRun(
            journal: journal, path: path, depth: depth, session: SessionID("writer-\(writer)"),
            seed: UInt64(writer + 1)))
      }
      return (journal, runs)
    }
    /// Every store sends `count` actions, all at once.
    func sendConcurrently(_ runs: [RecordingRun], _ count: Int) async throws {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for run in runs { group.addTask { try await run.send(count) } }
        try await group.waitForAll()
      }
    }

    let (groupJournal, group) = try await stores(.groupCommit(), file: "group.sqlite")
    let (_, full) = try await stores(.full, file: "full.sqlite")
    let raw = try RawCommit(path: directory.path("raw.sqlite"), synchronous: "FULL")
    var groupCost = Cost()
    var fullCost = Cost()
    var rawCost = Cost()
    for range in Rounds.ranges(total: options.count) {
      let actions = range.count
      try await groupCost.measure(actions: writers * actions) { try await sendConcurrently(group, actions) }
      try await fullCost.measure(actions: writers * actions) { try await sendConcurrently(full, actions) }
      let rows = try BaselineRow.read(group[0].path, session: "writer-0", sequences: range)
      try await rawCost.measure(actions: rows.count) { try raw.insert(rows) }
    }
    let statistics = groupJournal.groupCommitStatistics
    Report.title(
      "groupcommit: \(writers) RecordingStores × \(options.count) actions, depth \(depth), "
        + "one session each, one journal")
    Report.rate("RecordingStores, group commit (FULL, maxBatch 512)", cost: groupCost)
    Report.rate("one raw SQLite writer, FULL, one commit per row", cost: rawCost)
    Report.ratio("group commit / one raw FULL writer  (target ≥ 10)", groupCost.rate / rawCost.rate)
    Report.rate("RecordingStores, FULL, no group commit", cost: fullCost)
    if let statistics {
      Report.note(
        "batches \(statistics.batches), appends \(statistics.appends), average batch "
          + String(format: "%.1f", statistics.averageBatch) + ", largest \(statistics.largestBatch)")
    }
  }
}
