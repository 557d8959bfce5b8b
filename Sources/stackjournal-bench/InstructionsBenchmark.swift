import Foundation
import StackStorage

extension Benchmark {
  /// Records `--count` actions at NORMAL on one `RecordingStore` at each of `--depths`, and
  /// prints nothing else: run under `valgrind --tool=callgrind` twice with different counts
  /// (`benchmarks/append-instructions.sh` does) to get instructions per append. With `--keep`,
  /// the journals stay (`benchmarks/append-pages.py` matches the pages an append writes to the
  /// tables they belong to).
  static let instructions = Benchmark(
    name: "instructions",
    summary: "records --count actions at NORMAL, for callgrind (benchmarks/append-instructions.sh)"
  ) { options in
    let directory =
      try options.keep.map(ScratchDirectory.init(keepingAt:))
      ?? ScratchDirectory(prefix: "stackjournal-bench")
    defer { directory.remove() }
    for depth in options.depths {
      let run = try await RecordingRun(
        path: directory.path("depth-\(depth).sqlite"), durability: .normal, depth: depth)
      try runAsync { try await run.send(options.count) }
      print("instructions: depth \(depth), \(options.count) actions recorded")
    }
  }
}
