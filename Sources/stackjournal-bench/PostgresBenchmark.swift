import Foundation
import StackJournalDemo
import StackRestoration
import StackStorage

#if PostgreSQL
  import StackStoragePostgres
#endif

extension Benchmark {
  /// The same journal appends and restores on SQLite (FULL) and on PostgreSQL
  /// (`synchronous_commit` on), in one run.
  static let postgres = Benchmark(
    name: "postgres",
    summary: "appends (1 and --writers writers) and restores: PostgreSQL vs SQLite FULL"
  ) { options in
    #if PostgreSQL
      let environment = ProcessInfo.processInfo.environment
      guard
        let url = environment["STACKJOURNAL_BENCH_POSTGRES_URL"]
          ?? environment["STACKJOURNAL_TEST_POSTGRES_URL"]
      else {
        print(
          "postgres: skipped: set STACKJOURNAL_BENCH_POSTGRES_URL (e.g. "
            + "$(scripts/postgres.sh start))")
        return
      }
      try await PostgresBenchmark(options: options, url: url).run()
    #else
      print("postgres: skipped: build with `--traits PostgreSQL`")
    #endif
  }
}

#if PostgreSQL
  /// Records one session of the article workload once, then appends its entries (their deltas,
  /// with a snapshot every 100) into fresh sessions of each backend, from 1 and from `writers`
  /// threads at once, and restores them.
  struct PostgresBenchmark {
    let options: BenchmarkOptions
    let url: String
    static let snapshotInterval = 100

    func run() async throws {
      let count = options.count
      let depth = options.depths.first ?? 20
      let source = try SQLiteJournal.inMemory(
        options: .init(snapshotInterval: Self.snapshotInterval))
      let recording = try await RecordingRun(
        journal: source, path: "", depth: depth, session: "source", seed: 1)
      try await recording.send(count)
      var recorded: [JournalEntry] = []
      try await source.entries(session: "source") {
        recorded.append($0)
        return true
      }
      let entries = recorded
      var snapshotsDue: [Int64: EncodedState] = [:]
      for sequence in stride(from: 0, through: Int64(count), by: Self.snapshotInterval) {
        guard let snapshot = try source.snapshot(session: "source", atOrBelow: sequence),
          snapshot.sequence == sequence
        else { continue }
        snapshotsDue[sequence] = EncodedState(json: snapshot.state, stacks: snapshot.stacks)
      }
      let snapshots = snapshotsDue
      let initial = try XCTUnwrapOrThrow(snapshots[0])

      let directory = try ScratchDirectory(prefix: "stackjournal-bench-postgres")
      defer { directory.remove() }
      let sqlite = try SQLiteJournal(
        path: directory.path("bench.sqlite"),
        options: .init(durability: .full, snapshotInterval: Self.snapshotInterval))
      let schema = "bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
      let postgres = try await PostgresJournal(
        url: url + (url.contains("?") ? "&" : "?") + "schema=\(schema)",
        options: .init(snapshotInterval: Self.snapshotInterval, maximumConnections: 32))
      defer { postgres.close() }

      Report.title(
        "postgres: \(count) recorded actions (article workload, depth \(depth), a snapshot every "
          + "\(Self.snapshotInterval)) appended as deltas, SQLite FULL vs PostgreSQL "
          + "synchronous_commit=on")
      var rates: [String: Double] = [:]
      for writers in [1, options.writers] {
        for (name, journal) in [("SQLite FULL", sqlite as any JournalBackend), ("PostgreSQL", postgres)] {
          let sessions = (0..<writers).map { SessionID("w\(writers)-\($0)") }
          for session in sessions {
            _ = try await journal.createSession(session, initial: initial, version: 1)
          }
          let failures = FailureList()
          let seconds = await Report.seconds {
            await Report.concurrently(writers) { index in
              do {
                try await Self.append(entries, snapshots, to: journal, session: sessions[index])
              } catch {
                failures.append("\(error)")
              }
            }
          }
          if let failure = failures.first { throw BenchmarkFailure(failure) }
          rates["\(name) \(writers)"] = Report.rate(
            "\(name), \(writers) writer\(writers == 1 ? "" : "s") (one session each)",
            count: writers * entries.count, seconds: seconds, unit: "appends/s")
        }
        Report.ratio(
          "PostgreSQL / SQLite, \(writers) writer\(writers == 1 ? "" : "s")",
          rates["PostgreSQL \(writers)"]! / rates["SQLite FULL \(writers)"]!)
      }

      // Restores of one session of each backend with the same reducer: at the head and at
      // sequences spread over the journal.
      var generator = SeededGenerator(seed: 3)
      let targets = (0..<50).map { _ in Int64.random(in: 0...Int64(entries.count), using: &generator) }
      var restoreRates: [String: Double] = [:]
      for (name, journal) in [("SQLite FULL", sqlite as any JournalBackend), ("PostgreSQL", postgres)] {
        let replayer = Replayer(journal: journal) { ArticleApp() }
        var restored = 0
        let seconds = try await Report.seconds {
          for target in targets {
            let result = try await replayer.restore(session: "w1-0", at: .sequence(target))
            restored += result.isComplete ? 1 : 0
          }
          _ = try await replayer.restore(session: "w1-0")
          restored += 1
        }
        restoreRates[name] = Report.rate(
          "\(name), restores (random sequence or head)", count: restored, seconds: seconds,
          unit: "restores/s")
      }
      Report.ratio(
        "PostgreSQL / SQLite, restores", restoreRates["PostgreSQL"]! / restoreRates["SQLite FULL"]!)
      Report.note(
        "The SQLite journal is a file on the same disk; the server runs on this machine, so "
          + "every PostgreSQL statement is a loopback round trip.")
    }

    /// Appends the recorded entries to `session`, each guarded by the expected sequence.
    static func append(
      _ entries: [JournalEntry],
      _ snapshots: [Int64: EncodedState],
      to journal: any JournalBackend,
      session: SessionID
    ) async throws {
      for entry in entries {
        let sequence = try await journal.append(
          session: session, expectedSequence: entry.sequence - 1,
          JournalEntryDelta(
            type: entry.type, version: entry.version, payload: entry.payload, delta: entry.delta,
            snapshot: snapshots[entry.sequence], recordedAt: entry.recordedAt))
        guard sequence == entry.sequence else {
          throw BenchmarkFailure("appended \(sequence), expected \(entry.sequence)")
        }
      }
    }
  }

  /// Errors of writer threads, collected under a lock.
  final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []

    func append(_ failure: String) { lock.withLock { failures.append(failure) } }
    var first: String? { lock.withLock { failures.first } }
  }

  private func XCTUnwrapOrThrow<T>(_ value: T?) throws -> T {
    guard let value else { throw BenchmarkFailure("the recorded session has no snapshot 0") }
    return value
  }
#endif
