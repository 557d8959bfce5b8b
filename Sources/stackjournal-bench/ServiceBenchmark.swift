import Foundation
import StackRestoration
import StackStorage

extension Benchmark {
  /// Group commit at a service's scale, bounded by `--seconds`: 64 `RecordingStore`s on 64
  /// sessions of one `.groupCommit` journal sending back-to-back, against one raw SQLite writer
  /// committing comparable rows one transaction each at FULL, and 64 plain `Store`s that save
  /// nothing (the app alone, the ceiling of any journal here), in alternating rounds; then 1,000
  /// sessions on one `.groupCommit` journal each sending one action every 200 ms, as a service's
  /// users do: actions/s, and the latency of a durable `send`.
  static let service = Benchmark(
    name: "service",
    summary: "64 stores back-to-back and 1,000 sessions at 5 actions/s on a group-commit journal"
  ) { options in
    let depth = options.depths.first ?? 20
    switch options.states.first ?? .article {
    case .article:
      try await ServiceComparison<RecordWorkload>(depth: depth, seconds: options.seconds).run()
    case .shop:
      try await ServiceComparison<ShopWorkload>(depth: depth, seconds: options.seconds).run()
    case .shopDraws:
      try await ServiceComparison<ShopDrawsWorkload>(depth: depth, seconds: options.seconds).run()
    case .shopAlert:
      try await ServiceComparison<ShopAlertsWorkload<OneAlertOverTheStack>>(
        depth: depth, seconds: options.seconds
      ).run()
    case .shopAlerts:
      try await ServiceComparison<ShopAlertsWorkload<AlertOverEveryProduct>>(
        depth: depth, seconds: options.seconds
      ).run()
    }
  }
}

struct ServiceComparison<Workload: BenchWorkload> {
  let depth: Int
  /// How long each of the two parts runs, split evenly between its contenders.
  let seconds: Double
  let writers = 64
  let sessions = 1_000
  let interval = Duration.milliseconds(200)

  func run() async throws {
    let directory = try ScratchDirectory(prefix: "stackjournal-bench")
    defer { directory.remove() }
    try await backToBack(directory)
    print()
    try await serviceShape(directory)
  }

  /// 64 stores sending back-to-back against one raw FULL writer, in alternating rounds; and 64
  /// plain `Store`s receiving the same actions with nothing saved (the app alone), the most any
  /// journal could reach on this machine.
  private func backToBack(_ directory: ScratchDirectory) async throws {
    let path = directory.path("group.sqlite")
    let journal = try SQLiteJournal(path: path, options: .init(durability: .groupCommit()))
    let runs = try await open(writers, on: journal)
    let appRuns = try await open(writers, on: nil)
    let raw = try RawCommit(path: directory.path("raw.sqlite"), synchronous: "FULL")
    let rounds = 3
    let slice = seconds / 2 / Double(rounds)
    var group = Latencies()
    var groupCost = Cost()
    var rawCost = Cost()
    var appCost = Cost()
    var rows: [BaselineRow] = []
    for _ in 0..<rounds {
      let before = group.count
      try await groupCost.measure(actions: 0) {
        group.merge(try await sendUntil(slice, runs))
      }
      groupCost.actions += group.count - before
      if rows.isEmpty {
        // Rows the stores wrote: what the raw writer commits again, one transaction each.
        rows = try BaselineRow.read(path, session: "session-0", sequences: 1...100_000)
        guard !rows.isEmpty else { throw BenchmarkFailure("the stores journaled nothing") }
      }
      var committed = 0
      try await rawCost.measure(actions: 0) {
        let end = ContinuousClock.now + .milliseconds(Int(slice * 1_000))
        while ContinuousClock.now < end {
          let first = committed % rows.count
          let batch = Array(rows[first..<min(first + 50, rows.count)])
          try raw.insert(batch)
          committed += batch.count
        }
      }
      rawCost.actions += committed
      var app = Latencies()
      try await appCost.measure(actions: 0) { app = try await sendUntil(slice, appRuns) }
      appCost.actions += app.count
    }
    let statistics = journal.groupCommitStatistics
    Report.title(
      "service: \(writers) RecordingStores of \(Workload.Feature.self) at depth \(depth) ± 3, one "
        + "session each, one .groupCommit journal, back-to-back sends (\(rounds) rounds of "
        + String(format: "%.1f", slice) + " s each)")
    Report.rate("RecordingStores, group commit (FULL, maxBatch 512)", cost: groupCost)
    Report.rate("one raw SQLite writer, FULL, one commit per row", cost: rawCost)
    Report.rate("\(writers) plain Stores, nothing saved (the app alone)", cost: appCost)
    Report.ratio("group commit / one raw FULL writer  (target ≥ 8)", groupCost.rate / rawCost.rate)
    Report.ratio("ceiling: the app alone / one raw FULL writer", appCost.rate / rawCost.rate)
    Report.latencies("durable send", group)
    if let statistics {
      Report.note(
        "batches \(statistics.batches), appends \(statistics.appends), average batch "
          + String(format: "%.1f", statistics.averageBatch) + ", largest \(statistics.largestBatch)")
    }
  }

  /// 1,000 sessions, each sending one action every 200 ms from a phase of its own.
  private func serviceShape(_ directory: ScratchDirectory) async throws {
    let journal = try SQLiteJournal(
      path: directory.path("service.sqlite"), options: .init(durability: .groupCommit()))
    var runs: [WorkloadRun<Workload>] = []
    let opening = try await Report.seconds { runs = try await open(sessions, on: journal, prefix: "user") }
    let duration = seconds / 2
    let offered = Double(sessions) / (Double(interval.components.attoseconds) / 1e18)
    let before = journal.groupCommitStatistics
    var cost = Cost()
    var results = (send: Latencies(), late: Latencies())
    try await cost.measure(actions: 0) { results = try await sendEvery(interval, for: duration, runs) }
    cost.actions = results.send.count
    Report.title(
      "service: \(sessions) sessions of \(Workload.Feature.self) at depth \(depth) ± 3 on one "
        + ".groupCommit journal, each sending one action every 200 ms for "
        + String(format: "%.1f", duration) + " s (" + Report.grouped(offered)
        + " actions/s offered)")
    Report.rate("RecordingStores, group commit (FULL, maxBatch 512)", cost: cost)
    Report.ratio("actions/s achieved / offered", cost.rate / offered)
    Report.latencies("durable send  (target p99 ≤ 20 ms)", results.send)
    Report.latencies("from its scheduled time to journaled", results.late)
    if let before, let after = journal.groupCommitStatistics {
      let batches = after.batches - before.batches
      let appends = after.appends - before.appends
      Report.note(
        "batches \(batches), appends \(appends), average batch "
          + String(format: "%.1f", Double(appends) / Double(max(1, batches)))
          + "; opening \(sessions) sessions took " + String(format: "%.1f", opening) + " s")
    }
  }

  /// Opens `count` new sessions on `journal`, each with a workload of its own; without a
  /// journal, `count` plain stores.
  private func open(
    _ count: Int, on journal: SQLiteJournal?, prefix: String = "session"
  ) async throws -> [WorkloadRun<Workload>] {
    var runs: [WorkloadRun<Workload>] = []
    for index in 0..<count {
      runs.append(
        try await WorkloadRun<Workload>(
          journal: journal, depth: depth, session: SessionID("\(prefix)-\(index)"),
          seed: UInt64(index + 1)))
    }
    return runs
  }

  /// Every store sends back-to-back until `seconds` have passed; returns each send's latency.
  private func sendUntil(_ seconds: Double, _ runs: [WorkloadRun<Workload>]) async throws
    -> Latencies
  {
    let end = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
    return try await withThrowingTaskGroup(of: Latencies.self) { group in
      for run in runs {
        group.addTask {
          var latencies = Latencies()
          while ContinuousClock.now < end {
            let start = ContinuousClock.now
            try await run.sendOne()
            latencies.add(ContinuousClock.now - start)
          }
          return latencies
        }
      }
      var all = Latencies()
      for try await latencies in group { all.merge(latencies) }
      return all
    }
  }

  /// Every store sends one action per `interval`, each from a phase of its own, for `seconds`;
  /// returns the latency of each send, and the time from its scheduled start to its return.
  private func sendEvery(
    _ interval: Duration, for seconds: Double, _ runs: [WorkloadRun<Workload>]
  ) async throws -> (send: Latencies, late: Latencies) {
    let start = ContinuousClock.now
    let end = start + .milliseconds(Int(seconds * 1_000))
    let count = runs.count
    let interval = interval
    return try await withThrowingTaskGroup(of: (Latencies, Latencies).self) { group in
      for (index, run) in runs.enumerated() {
        group.addTask {
          var send = Latencies()
          var late = Latencies()
          var next = start + interval * (Double(index) / Double(count))
          while next < end {
            try await Task.sleep(until: next, tolerance: .zero, clock: .continuous)
            let sent = ContinuousClock.now
            try await run.sendOne()
            let done = ContinuousClock.now
            send.add(done - sent)
            late.add(done - next)
            // A session that fell behind sends again at once, as a user's queued input does.
            next += interval
          }
          return (send, late)
        }
      }
      var all = (send: Latencies(), late: Latencies())
      for try await (send, late) in group {
        all.send.merge(send)
        all.late.merge(late)
      }
      return all
    }
  }
}

/// Latencies of sends, in nanoseconds.
struct Latencies: Sendable {
  private var values: [Int64] = []

  var count: Int { values.count }

  mutating func add(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    values.append(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }

  mutating func merge(_ other: Latencies) { values += other.values }

  /// The latency below which `fraction` of the sends fall, in milliseconds.
  func percentile(_ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
    return Double(sorted[max(0, index)]) / 1e6
  }
}

extension Report {
  /// Prints the median, 99th percentile and largest of a set of latencies.
  static func latencies(_ label: String, _ latencies: Latencies) {
    let figures = [0.5, 0.99, 1.0].map { String(format: "%.2f", latencies.percentile($0)) }
    print(
      "  \(label.column)"
        + "p50 \(figures[0]) ms, p99 \(figures[1]) ms, max \(figures[2]) ms  "
        + "(\(latencies.count) sends)")
  }
}
