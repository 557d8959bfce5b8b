import Foundation

/// One section of the benchmark run, selected by name on the command line.
struct Benchmark: Sendable {
  /// The name given on the command line, e.g. `append`.
  var name: String
  /// One line for `--help`.
  var summary: String
  /// Runs the section and prints its figures.
  var run: @Sendable (BenchmarkOptions) async throws -> Void

  /// Every section, in the order `all` runs them. Add new sections here.
  static let all: [Benchmark] = [
    .record,
    .groupCommit,
    .restore,
    .instructions,
    .timestamps,
    .service,
    .postgres,
  ]
}

/// The options every section receives.
struct BenchmarkOptions: Sendable {
  /// How many actions a measured run appends (per writer for concurrent sections).
  var count = 1_000
  /// How many concurrent writers the concurrent sections use.
  var writers = 8
  /// The stack depths the recording sections use.
  var depths = [20]
  /// The journal sizes the restore section records and restores.
  var sizes = [10_000, 100_000, 1_000_000]
  /// Where `instructions` writes its journals and leaves them, for a later look at the file;
  /// `nil`: a temporary directory, removed after.
  var keep: String?
  /// The features `instructions` runs (`--state`).
  var states: [BenchState] = [.article]
  /// Whether `instructions` sends to a plain `Store` with no journal (`--plain`).
  var plain = false
  /// How long each measured part of `service` runs, in seconds.
  var seconds = 10.0
}
