import Foundation
import StackJournalDemo
import StackNavigation
import StackRestoration
import StackStorage

extension Benchmark {
  /// Restore time at the head and at random sequences, next to a full replay from sequence 0,
  /// for journals of several sizes.
  static let restore = Benchmark(
    name: "restore",
    summary: "restore at head / random sequence vs full replay (journals of --sizes actions)"
  ) { options in
    Report.title(
      "Restoring a session (snapshot every \(RestoreWorkload.snapshotInterval) entries + replay)"
        + " vs replaying it all from sequence 0")
    for size in options.sizes {
      try await RestoreWorkload(size: size).run()
    }
  }
}

struct RestoreWorkload {
  static let snapshotInterval = 100
  let size: Int

  func run() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("stackjournal-bench-restore-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("restore.sqlite").path

    let buildSeconds = try await Report.seconds { try await record(into: path) }
    let journal = try SQLiteJournal(path: path)
    let head = try journal.headSequence(session: "bench")
    Report.note(
      "journal of \(Report.grouped(Double(head))) actions recorded in "
        + String(format: "%.1f", buildSeconds) + " s (durability .normal, for setup only)")
    let replayer = Replayer(journal: journal) { RootFeature() }

    var atHead: Restored<RootFeature.State>?
    let headSeconds = try await median(5) { atHead = try await replayer.restore(session: "bench") }

    // The sequence just below the head replays the most actions since its snapshot.
    var worst: Restored<RootFeature.State>?
    let worstSeconds = try await median(5) {
      worst = try await replayer.restore(session: "bench", at: .sequence(head - 1))
    }

    var generator = SeededGenerator(seed: UInt64(size))
    let targets = (0..<20).map { _ in Int64.random(in: 0...head, using: &generator) }
    var randomSeconds: [Double] = []
    var maxReplayed = 0
    for target in targets {
      randomSeconds.append(
        try await Report.seconds {
          let restored = try await replayer.restore(session: "bench", at: .sequence(target))
          maxReplayed = max(maxReplayed, restored.replayedCount)
        })
    }
    let randomMedian = randomSeconds.sorted()[randomSeconds.count / 2]

    let rssBefore = peakResidentKilobytes()
    var full: Restored<RootFeature.State>?
    let fullSeconds = try await Report.seconds {
      full = try await replayer.restore(session: "bench", startingAtOrBelow: 0)
    }
    let rssAfter = peakResidentKilobytes()
    guard let atHead, let worst, let full, atHead.state == full.state else {
      throw BenchmarkFailure("restoring at the head and replaying everything disagree")
    }

    Report.note("\(Report.grouped(Double(head))) actions:")
    Report.note(
      "  restore at head          \(milliseconds(headSeconds))  (replayed \(atHead.replayedCount))")
    Report.note(
      "  restore at head − 1      \(milliseconds(worstSeconds))  (replayed \(worst.replayedCount): the most after a snapshot)")
    Report.note(
      "  restore at random seq    \(milliseconds(randomMedian))  (median of 20; replayed at most \(maxReplayed))")
    Report.note(
      "  full replay from seq 0   \(milliseconds(fullSeconds))  (replayed \(full.replayedCount))")
    Report.ratio("    full replay / restore at head", fullSeconds / headSeconds)
    Report.ratio("    full replay / restore at head − 1", fullSeconds / worstSeconds)
    Report.ratio("    full replay / restore at random sequence", fullSeconds / randomMedian)
    if let rssBefore, let rssAfter {
      Report.note(
        "  peak RSS before/after full replay: \(rssBefore / 1024) / \(rssAfter / 1024) MiB")
    }
  }

  private func record(into path: String) async throws {
    let journal = try SQLiteJournal(
      path: path,
      options: .init(durability: .normal, snapshotInterval: Self.snapshotInterval))
    let store = try await RecordingStore.open(
      session: "bench", journal: journal, initialState: DemoScript.deepLink
    ) {
      RootFeature()
    }
    var generator = SeededGenerator(seed: 42)
    var state = await store.state
    var lastReport = ContinuousClock.now
    while store.sequence < size {
      try await store.send(
        DemoScript.nextAction(for: state, using: &generator, allowEffects: false))
      state = await store.state
      if ContinuousClock.now - lastReport > .seconds(5) {
        lastReport = ContinuousClock.now
        FileHandle.standardError.write(Data("  recording: \(store.sequence)/\(size)\n".utf8))
      }
    }
  }

  private func median(_ runs: Int, _ body: () async throws -> Void) async rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs { times.append(try await Report.seconds(body)) }
    return times.sorted()[runs / 2]
  }

  private func milliseconds(_ seconds: Double) -> String {
    String(format: "%10.2f ms", seconds * 1000)
  }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The process's peak resident set size in KiB (Linux `VmHWM`), or `nil` where unavailable.
func peakResidentKilobytes() -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return nil
  }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    return Int(line.split(separator: " ").dropFirst().first ?? "")
  }
  return nil
}
