import Foundation
import GRDB
import Logging

/// Coalesces appends from many callers into one transaction: the
/// ``Durability/groupCommit(maxBatch:)`` mode.
///
/// Requests wait in a queue; one writer at a time (work on a serial dispatch queue of its own)
/// takes up to `maxBatch` of them, writes them in one transaction, each under its own savepoint
/// so one failing request does not undo the others, commits (one disk flush), then hands every
/// request its result, and goes on while requests are waiting. Requests submitted meanwhile
/// wait for the next batch. A request returns only after the transaction holding it committed.
///
/// ``submit(_:)`` suspends its task until then, without holding a thread, so many stores on few
/// cores (Swift's cooperative pool has a thread per core) can all have an append waiting in the
/// same batch.
final class GroupCommitBatcher: @unchecked Sendable {
  private final class Request {
    let work: (Database) throws -> HeadShapes.Head
    var continuation: CheckedContinuation<HeadShapes.Head, any Error>?

    init(work: @escaping (Database) throws -> HeadShapes.Head) {
      self.work = work
    }
  }

  /// Counts of what the batcher did.
  struct Statistics {
    var batches = 0
    var requests = 0
    var largestBatch = 0
  }

  private let database: any DatabaseWriter
  private let maxBatch: Int
  /// The journal's file (`nil` in memory) and where the batcher reports a failed batch.
  private let path: String?
  private let logger: Logger
  private let writer = DispatchQueue(label: "StackJournal.GroupCommitBatcher")
  private let lock = NSLock()
  // Guarded by `lock`.
  private var waiting: [Request] = []
  private var isDraining = false
  private var counts = Statistics()

  var statistics: Statistics {
    lock.lock()
    defer { lock.unlock() }
    return counts
  }

  init(
    database: any DatabaseWriter, maxBatch: Int, path: String? = nil,
    logger: Logger = SQLiteJournal.discardingLogger
  ) {
    self.database = database
    self.maxBatch = maxBatch
    self.path = path
    self.logger = logger
  }

  /// Runs `work` inside a batch transaction and returns the head it made once the batch committed,
  /// suspending the calling task meanwhile.
  func submit(_ work: @escaping @Sendable (Database) throws -> HeadShapes.Head) async throws
    -> HeadShapes.Head
  {
    try await withCheckedThrowingContinuation { continuation in
      let request = Request(work: work)
      request.continuation = continuation
      lock.lock()
      enqueue(request)
      lock.unlock()
    }
  }

  /// Queues a request and starts the writer when it is idle. Called with `lock` held.
  private func enqueue(_ request: Request) {
    waiting.append(request)
    guard !isDraining else { return }
    isDraining = true
    writer.async { self.drain() }
  }

  /// Writes batches until no request is waiting.
  private func drain() {
    while true {
      lock.lock()
      guard !waiting.isEmpty else {
        isDraining = false
        lock.unlock()
        return
      }
      let batch = Array(waiting.prefix(maxBatch))
      waiting.removeFirst(batch.count)
      lock.unlock()
      let results = write(batch)
      lock.lock()
      counts.batches += 1
      counts.requests += batch.count
      counts.largestBatch = max(counts.largestBatch, batch.count)
      lock.unlock()
      for (request, result) in zip(batch, results) {
        request.continuation?.resume(with: result)
        request.continuation = nil
      }
    }
  }

  private func write(_ batch: [Request]) -> [Result<HeadShapes.Head, any Error>] {
    var results: [Result<HeadShapes.Head, any Error>] = []
    results.reserveCapacity(batch.count)
    do {
      // Transaction and savepoints through statements prepared once (``Database/run(_:_:)``).
      try database.writeWithoutTransaction { db in
        try db.inImmediateTransaction {
          for request in batch {
            do {
              results.append(.success(try db.inAppendSavepoint { try request.work(db) }))
            } catch {
              results.append(.failure(error))
            }
          }
        }
      }
      return results
    } catch {
      // The transaction itself failed (its commit, a full disk): every append in it fails.
      logger.error(
        "a group-commit batch failed; none of its appends was written",
        metadata: [
          "journal": "\(path ?? "memory")", "batch.size": "\(batch.count)",
          "error": "\(StorageError.printable(String(describing: error)))",
        ])
      return batch.map { _ in .failure(error) }
    }
  }
}
