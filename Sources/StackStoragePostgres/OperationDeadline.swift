#if PostgreSQL
  import Dispatch
  import Foundation

  /// Runs the client's work with a time limit: a call that gets no answer from the server within
  /// its operation timeout fails instead of waiting forever, and its work is cancelled.
  final class OperationDeadline: Sendable {
    private let queue = DispatchQueue(label: "StackStoragePostgres.deadline")

    /// Runs `body` and returns its result, at most `timeout` after the call.
    ///
    /// Returns `nil` when the time ran out; the work is then cancelled.
    func run<T: Sendable>(
      timeout: Duration,
      _ body: sending @escaping () async throws -> T
    ) async -> Result<T, any Error>? {
      let outcome = FirstOutcome<T>(counted: outcomes)
      let task = Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.offer(result)
      }
      // A timer cancelled once the work is done, not a block left on the queue until the
      // deadline: that block kept the work's task and its outcome (the statement, its bound
      // values) alive for the whole timeout after every call, ~7 KB per append for 30 s.
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(deadline: .now() + Self.interval(timeout))
      timer.setEventHandler { if outcome.offer(nil) { task.cancel() } }
      timer.resume()
      let value = await outcome.value()
      timer.cancel()
      return value
    }

    /// A duration as Dispatch counts it.
    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
      let (seconds, attoseconds) = duration.components
      return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// The outcomes of ``run(timeout:_:)`` calls still in memory: the calls in progress, and
    /// those whose timer has not been released yet.
    var outcomesInMemory: Int { outcomes.value }
    private let outcomes = LiveCount()
  }

  /// A count of live objects, for ``OperationDeadline/outcomesInMemory``.
  final class LiveCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add(_ delta: Int) { lock.withLock { count += delta } }
  }

  /// The first of the outcomes offered, the work's result or the timeout (`nil`), for one
  /// waiting task.
  private final class FirstOutcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var decided = false
    private var outcome: Result<T, any Error>?
    private var waiting: CheckedContinuation<Result<T, any Error>?, Never>?
    private let live: LiveCount

    init(counted live: LiveCount) {
      self.live = live
      live.add(1)
    }

    deinit { live.add(-1) }

    /// Offers an outcome; `true` when it was the first.
    @discardableResult
    func offer(_ outcome: Result<T, any Error>?) -> Bool {
      lock.lock()
      guard !decided else {
        lock.unlock()
        return false
      }
      decided = true
      self.outcome = outcome
      let waiting = self.waiting
      self.waiting = nil
      lock.unlock()
      waiting?.resume(returning: outcome)
      return true
    }

    /// Waits for the first outcome.
    func value() async -> Result<T, any Error>? {
      await withCheckedContinuation { continuation in
        lock.lock()
        if decided {
          let outcome = self.outcome
          lock.unlock()
          continuation.resume(returning: outcome)
        } else {
          waiting = continuation
          lock.unlock()
        }
      }
    }
  }
#endif
