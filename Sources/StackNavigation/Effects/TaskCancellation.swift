import Foundation

/// Runs `operation` as work that can be cancelled by ID, inside an effect's own asynchronous
/// work: `.cancel(id:)` from the feature's reducer cancels it, and so does a later call with the
/// same ID and `cancelInFlight`, which is how an effect debounces:
///
/// ```swift
/// return .run { _ in
///   try await withTaskCancellation(id: CancelID.save, cancelInFlight: true) {
///     try await clock.sleep(for: .seconds(1))
///     try await save()
///   }
/// }
/// ```
///
/// IDs are scoped as ``Effect/cancellable(id:cancelInFlight:)`` scopes them: to the stack
/// element or presented child whose effect calls this, and to the store that runs the effect.
public func withTaskCancellation<T: Sendable, Failure: Error>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws(Failure) -> T
) async throws(Failure) -> T {
  let id = EffectID(ScopedCancelID(id))
  let registry = TaskCancellations.current
  let (token, task) = registry.start(id: id, cancelInFlight: cancelInFlight) {
    () async -> Result<T, Failure> in
    do throws(Failure) {
      return .success(try await operation())
    } catch {
      return .failure(error)
    }
  }
  defer { registry.finished(id: id, token: token) }
  let result = await withTaskCancellationHandler {
    await task.value
  } onCancel: {
    task.cancel()
  }
  return try result.get()
}

/// The work started by ``withTaskCancellation(id:cancelInFlight:operation:)``, by ID: one
/// registry per store (its effects run with it as ``current``), and one shared by work that no
/// store started.
final class TaskCancellations: Sendable {
  private struct Registry {
    var nextToken = 0
    /// How to cancel each piece of work, by ID and token.
    var running: [EffectID: [Int: @Sendable () -> Void]] = [:]
  }

  private let registry = LockIsolated(Registry())

  /// The registry of the store whose effect is running, or the shared one.
  @TaskLocal static var current = TaskCancellations()

  /// Starts `work` under `id`, first cancelling what runs under it when `cancelInFlight`.
  func start<R: Sendable>(
    id: EffectID,
    cancelInFlight: Bool,
    _ work: @escaping @Sendable () async -> R
  ) -> (token: Int, task: Task<R, Never>) {
    let task = Task { await work() }
    let (token, cancelled) = registry.withValue { registry in
      defer { registry.nextToken += 1 }
      let inFlight = cancelInFlight ? registry.running.removeValue(forKey: id) : nil
      registry.running[id, default: [:]][registry.nextToken] = { task.cancel() }
      return (registry.nextToken, inFlight.map { Array($0.values) } ?? [])
    }
    for cancel in cancelled { cancel() }
    return (token, task)
  }

  /// Forgets work that has finished.
  func finished(id: EffectID, token: Int) {
    registry.withValue { registry in
      registry.running[id]?.removeValue(forKey: token)
      if registry.running[id]?.isEmpty == true { registry.running.removeValue(forKey: id) }
    }
  }

  /// Cancels the work whose IDs satisfy a predicate.
  func cancel(where matches: @Sendable (EffectID) -> Bool) {
    let cancelled = registry.withValue { registry in
      let ids = registry.running.keys.filter(matches)
      return ids.flatMap { registry.running.removeValue(forKey: $0).map { Array($0.values) } ?? [] }
    }
    for cancel in cancelled { cancel() }
  }

  /// Cancels all the work.
  func cancelAll() {
    cancel(where: { _ in true })
  }
}
