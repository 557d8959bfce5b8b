/// What a journal's group commit did so far: how many appends shared each disk flush.
public struct GroupCommitStatistics: Equatable, Sendable {
  /// Transactions committed, each with one flush.
  public var batches: Int
  /// Appends written in them, failed ones included.
  public var appends: Int
  /// The most appends one transaction held.
  public var largestBatch: Int

  /// Creates statistics from their counts.
  public init(batches: Int = 0, appends: Int = 0, largestBatch: Int = 0) {
    self.batches = batches
    self.appends = appends
    self.largestBatch = largestBatch
  }

  /// Appends per transaction on average; 0 before the first one.
  public var averageBatch: Double {
    batches == 0 ? 0 : Double(appends) / Double(batches)
  }
}

extension SQLiteJournal {
  /// The statistics of the journal's group commit, or `nil` when its durability is not
  /// `Durability.groupCommit(maxBatch:)`.
  public var groupCommitStatistics: GroupCommitStatistics? {
    batcher.map {
      let counts = $0.statistics
      return GroupCommitStatistics(
        batches: counts.batches, appends: counts.requests, largestBatch: counts.largestBatch)
    }
  }
}
