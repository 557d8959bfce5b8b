import Foundation
import GRDB

/// Coalesces appends from many threads into one transaction: the
/// ``Durability/groupCommit(maxBatch:)`` mode.
///
/// Leader/follower: a thread that submits work while no batch is being written becomes the
/// leader. It takes up to `maxBatch` waiting requests (its own among them), writes them in one
/// transaction, each under its own savepoint so one failing request does not undo the others,
/// commits (one disk flush), then hands every request its result and wakes the waiting threads.
/// Requests submitted meanwhile wait for the next leader. A request returns only after the
/// transaction holding it committed.
final class GroupCommitBatcher: @unchecked Sendable {
  private final class Request {
    let work: (Database) throws -> Int64
    var result: Result<Int64, any Error>?

    init(work: @escaping (Database) throws -> Int64) {
      self.work = work
    }
  }

  /// Counts of what the batcher did, for tests.
  struct Statistics {
    var batches = 0
    var requests = 0
    var largestBatch = 0
  }

  private let database: any DatabaseWriter
  private let maxBatch: Int
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var waiting: [Request] = []
  private var leaderIsWriting = false
  private var counts = Statistics()

  var statistics: Statistics {
    condition.lock()
    defer { condition.unlock() }
    return counts
  }

  init(database: any DatabaseWriter, maxBatch: Int) {
    self.database = database
    self.maxBatch = maxBatch
  }

  /// Runs `work` inside a batch transaction and returns its result once the batch committed.
  func submit(_ work: @escaping (Database) throws -> Int64) throws -> Int64 {
    let request = Request(work: work)
    condition.lock()
    waiting.append(request)
    while request.result == nil {
      if leaderIsWriting {
        condition.wait()
        continue
      }
      leaderIsWriting = true
      let batch = Array(waiting.prefix(maxBatch))
      waiting.removeFirst(batch.count)
      condition.unlock()
      let results = write(batch)
      condition.lock()
      for (request, result) in zip(batch, results) {
        request.result = result
      }
      counts.batches += 1
      counts.requests += batch.count
      counts.largestBatch = max(counts.largestBatch, batch.count)
      leaderIsWriting = false
      condition.broadcast()
    }
    let result = request.result!
    condition.unlock()
    return try result.get()
  }

  private func write(_ batch: [Request]) -> [Result<Int64, any Error>] {
    var results: [Result<Int64, any Error>] = []
    results.reserveCapacity(batch.count)
    do {
      try database.write { db in
        for request in batch {
          do {
            var sequence: Int64 = 0
            try db.inSavepoint {
              sequence = try request.work(db)
              return .commit
            }
            results.append(.success(sequence))
          } catch {
            results.append(.failure(error))
          }
        }
      }
      return results
    } catch {
      return batch.map { _ in .failure(error) }
    }
  }
}
