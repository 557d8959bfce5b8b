import Foundation

/// Parses `stackjournal-bench [section …] [--count N] [--writers N]` and runs the sections.
enum BenchmarkCommand {
  static var usage: String {
    let sections = Benchmark.all.map {
      "  \($0.name.padding(toLength: 13, withPad: " ", startingAt: 0)) \($0.summary)"
    }
    return """
      usage: stackjournal-bench [section …|all] [--count N] [--writers N] [--depths N,…]
                                [--sizes N,…] [--keep DIR] [--state NAME,…] [--plain]
                                [--seconds S]

      sections:
      \(sections.joined(separator: "\n"))
        all           every section (the default)

      options:
        --count N     actions per measured run (default 1000; per writer when concurrent);
                      for `timestamps`, the times formatted and parsed
        --writers N   concurrent writers (default 8)
        --depths N,…  stack depths for `record`, `groupcommit`, `instructions` (default 20)
        --sizes N,…   journal sizes for `restore` (default 10000,100000,1000000)
        --keep DIR    `instructions` writes its journals into DIR, a new directory, and
                      leaves them (benchmarks/append-pages.py reads them)
        --state NAME,…  the features `instructions` runs: article (the bench's own, the
                      default), shop (written with @Reducer and a @Reducer enum Path),
                      shopDraws (the shop whose reducers draw an ID and a time from
                      \\.uuid and \\.date for a third of the actions),
                      shopAlert (the shop with an alert open over it and one over a
                      product, which no action touches), shopAlerts (alerts open over it
                      and over every product)
        --plain       `instructions` sends the same actions to a plain Store, no journal
        --seconds S   how long each measured part of `service` runs (default 10)
      """
  }

  /// Runs the command and returns the process exit code.
  static func run(_ arguments: [String]) async -> Int32 {
    var options = BenchmarkOptions()
    var names: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--count", "--writers":
        guard let value = remaining.popFirst().flatMap(Int.init), value > 0 else {
          return fail("\(argument) needs a positive integer")
        }
        if argument == "--count" { options.count = value } else { options.writers = value }
      case "--sizes", "--depths":
        guard
          let values = remaining.popFirst()?.split(separator: ",").map({ Int($0) }),
          !values.isEmpty, values.allSatisfy({ ($0 ?? 0) > 0 && ($0 ?? 0) <= 10_000_000 })
        else {
          return fail("\(argument) needs positive integers separated by commas")
        }
        if argument == "--sizes" {
          options.sizes = values.compactMap { $0 }
        } else {
          options.depths = values.compactMap { $0 }
        }
      case "--state":
        guard
          let values = remaining.popFirst()?.split(separator: ",").map({
            BenchState(rawValue: String($0))
          }),
          !values.isEmpty, values.allSatisfy({ $0 != nil })
        else {
          let names = BenchState.allCases.map(\.rawValue).joined(separator: ", ")
          return fail("--state needs names separated by commas, of: \(names)")
        }
        options.states = values.compactMap { $0 }
      case "--plain":
        options.plain = true
      case "--seconds":
        guard let value = remaining.popFirst().flatMap(Double.init), value > 0, value <= 3_600
        else {
          return fail("--seconds needs a number of seconds, above 0 and at most 3600")
        }
        options.seconds = value
      case "--keep":
        guard let directory = remaining.popFirst(), !directory.isEmpty else {
          return fail("--keep needs a directory")
        }
        options.keep = directory
      case "-h", "--help":
        print(usage)
        return 0
      case let name where !name.hasPrefix("-"):
        names.append(name)
      default:
        return fail("unknown option \(argument)")
      }
    }
    if names.isEmpty || names.contains("all") { names = Benchmark.all.map(\.name) }
    var selected: [Benchmark] = []
    for name in names {
      guard let benchmark = Benchmark.all.first(where: { $0.name == name }) else {
        return fail("unknown section \(name)")
      }
      selected.append(benchmark)
    }
    #if DEBUG
      print("note: a debug build; run `swift run -c release stackjournal-bench` for real figures\n")
    #endif
    for benchmark in selected {
      do {
        try await benchmark.run(options)
      } catch {
        print("\(benchmark.name) failed: \(error)")
        return 1
      }
      print()
    }
    return 0
  }

  private static func fail(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data("stackjournal-bench: \(message)\n\n\(usage)\n".utf8))
    return 2
  }
}
