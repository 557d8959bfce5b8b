/// Splits a measured run into rounds that alternate between the journal and the baseline, so
/// both see the same disk: a machine's flush latency drifts with other work on it.
enum Rounds {
  /// How many rounds a run of `count` actions uses.
  static let count = 5

  /// The ranges of 1-based sequences each round covers.
  static func ranges(total: Int) -> [ClosedRange<Int64>] {
    let rounds = max(1, min(count, total))
    return (0..<rounds).compactMap { round in
      let start = total * round / rounds
      let end = total * (round + 1) / rounds
      return end > start ? Int64(start + 1)...Int64(end) : nil
    }
  }
}
