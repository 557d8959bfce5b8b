import Foundation

/// Starts the work of effects and keeps track of it for cancellation and for tests.
final class EffectRuntime<Action: Sendable>: Sendable {
  private struct Running {
    var ids: Set<EffectID>
    var task: Task<Void, Never>?
    /// The caller's tag for the action whose effect started this work.
    var tag: Int?
    /// Whether the work's task has begun to run.
    var hasBegun = false
  }

  private struct Registry {
    var nextToken = 0
    var running: [Int: Running] = [:]
    /// Work no longer counted as running (a test skipped it) but not cancelled: its actions
    /// still arrive. Cancelled by ``cancelAll()``.
    var untracked: [Task<Void, Never>] = []
  }

  private let registry = LockIsolated(Registry())
  /// The work of `withTaskCancellation(id:)` inside this store's effects, cancelled by the same
  /// IDs as the effects.
  private let taskCancellations = TaskCancellations()

  /// What `@Dependency(\.dismiss)` does in work that no stack element or route dismisses itself:
  /// nothing for a store (dismissing there is a mistake it reports), the test store's own
  /// dismissal for a `TestStore`.
  private let rootDismiss: DismissHandler

  init(rootDismiss: DismissHandler = .none) {
    self.rootDismiss = rootDismiss
  }

  /// Starts an effect. Returns the actions it sends right away, to be processed before the
  /// current `send` returns, and the tasks of its asynchronous work.
  ///
  /// - Parameter tag: Marks the work this effect starts, so ``runningTags`` can tell which
  ///   actions' effects are still running.
  func start(
    _ effect: Effect<Action>,
    tag: Int? = nil,
    deliver: @escaping @Sendable (Action) async -> Void
  ) -> (immediate: [Action], tasks: [Task<Void, Never>]) {
    var immediate: [Action] = []
    var tasks: [Task<Void, Never>] = []
    start(
      effect.operations, ids: [], tag: tag, deliver: deliver, immediate: &immediate,
      tasks: &tasks)
    return (immediate, tasks)
  }

  private func start(
    _ operations: [Effect<Action>.Operation],
    ids: Set<EffectID>,
    tag: Int?,
    deliver: @escaping @Sendable (Action) async -> Void,
    immediate: inout [Action],
    tasks: inout [Task<Void, Never>]
  ) {
    for operation in operations {
      switch operation {
      case let .send(action):
        immediate.append(action)
      case let .cancel(id):
        cancelDescendants(of: id)
      case let .cancellable(id, cancelInFlight, inner):
        if cancelInFlight { cancel(id: id) }
        start(
          inner, ids: ids.union([id]), tag: tag, deliver: deliver, immediate: &immediate,
          tasks: &tasks)
      case let .run(priority, work):
        let token = register(ids: ids, tag: tag)
        // Not detached: the work keeps the sender's task-local values (issue reporters, test
        // context), except the dismissal of an element, which each element installs itself.
        let task = Task(priority: priority) { [registry, rootDismiss, taskCancellations] in
          registry.withValue { $0.running[token]?.hasBegun = true }
          await TaskCancellations.$current.withValue(taskCancellations) {
            await DismissHandler.$current.withValue(rootDismiss) {
              await work(Send(send: deliver))
            }
          }
          registry.withValue { _ = $0.running.removeValue(forKey: token) }
        }
        registry.withValue { registry in
          if registry.running[token] != nil { registry.running[token]?.task = task }
        }
        tasks.append(task)
      case let .concatenate(effects):
        // Effects at the start that only send or cancel take effect right away, as alone.
        var rest = effects[...]
        while let first = rest.first, !first.contains(where: { $0.startsWork }) {
          start(first, ids: ids, tag: tag, deliver: deliver, immediate: &immediate, tasks: &tasks)
          rest = rest.dropFirst()
        }
        if !rest.isEmpty {
          tasks.append(startInSequence(Array(rest), ids: ids, tag: tag, deliver: deliver))
        }
      }
    }
  }

  /// Starts each effect once the one before it has finished, as one piece of running work
  /// under `ids`: cancelling it cancels the effect running and skips the rest.
  private func startInSequence(
    _ effects: [[Effect<Action>.Operation]],
    ids: Set<EffectID>,
    tag: Int?,
    deliver: @escaping @Sendable (Action) async -> Void
  ) -> Task<Void, Never> {
    let token = register(ids: ids, tag: tag)
    let task = Task { [self] in
      registry.withValue { $0.running[token]?.hasBegun = true }
      for operations in effects {
        guard !Task.isCancelled else { break }
        var sent: [Action] = []
        var started: [Task<Void, Never>] = []
        // Under the same IDs, so cancelling the whole reaches the part running now.
        start(operations, ids: ids, tag: tag, deliver: deliver, immediate: &sent, tasks: &started)
        for action in sent where !Task.isCancelled { await deliver(action) }
        for task in started {
          await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        }
      }
      registry.withValue { _ = $0.running.removeValue(forKey: token) }
    }
    registry.withValue { registry in
      if registry.running[token] != nil { registry.running[token]?.task = task }
    }
    return task
  }

  /// Registers work about to start; returns its token.
  private func register(ids: Set<EffectID>, tag: Int?) -> Int {
    registry.withValue { registry in
      defer { registry.nextToken += 1 }
      registry.running[registry.nextToken] = Running(ids: ids, task: nil, tag: tag)
      return registry.nextToken
    }
  }

  /// Cancels the work running under an ID; it no longer counts as running.
  func cancel(id: EffectID) {
    cancel(where: { $0.contains(id) })
    taskCancellations.cancel(where: { $0 == id })
  }

  /// Cancels the work running under an ID where the cancellation was asked, and under the same
  /// ID in the features presented or pushed below it: a parent's `.cancel(id:)` reaches its
  /// children's effects, as in the Composable Architecture, never a parent's or a sibling's.
  func cancelDescendants(of id: EffectID) {
    guard let asked = id.featureID else { return cancel(id: id) }
    cancel(where: { $0.contains { $0.isWithin(asked) } })
    taskCancellations.cancel(where: { $0.isWithin(asked) })
  }

  /// Cancels the work whose cancellation IDs satisfy a predicate; it no longer counts as running.
  private func cancel(where matches: @Sendable (Set<EffectID>) -> Bool) {
    let cancelled = registry.withValue { registry in
      // Closures, not key paths: a key path in generic code is built again on every call.
      let tokens = registry.running.filter { matches($0.value.ids) }.map { $0.key }
      return tokens.compactMap { registry.running.removeValue(forKey: $0)?.task }
    }
    for task in cancelled { task.cancel() }
  }

  /// Cancels all running work, the untracked included.
  func cancelAll() {
    let cancelled = registry.withValue { registry in
      defer {
        registry.running.removeAll()
        registry.untracked.removeAll()
      }
      return registry.running.values.compactMap { $0.task } + registry.untracked
    }
    for task in cancelled { task.cancel() }
    taskCancellations.cancelAll()
  }

  /// Stops counting the running work as running, without cancelling it: the actions it sends
  /// still arrive. Returns the tags it carried, each once, smallest first.
  func untrackAll() -> [Int] {
    registry.withValue { registry in
      defer { registry.running.removeAll() }
      registry.untracked += registry.running.values.compactMap { $0.task }
      return Set(registry.running.values.compactMap(\.tag)).sorted()
    }
  }

  /// Waits until the task of every piece of running work has begun (at most `timeout`), so a
  /// test that advances a test clock right after `send` finds the effect's work under way, as
  /// the Composable Architecture's test store waits for its effects to start.
  func waitUntilBegun(timeout: Duration = .seconds(1)) async {
    let deadline = ContinuousClock.now + timeout
    var yields = 0
    while registry.withValue({ $0.running.values.contains { !$0.hasBegun } }) {
      guard ContinuousClock.now < deadline else { return }
      yields += 1
      if yields < 100 {
        await Task.yield()
      } else {
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
  }

  /// The number of effects still running (cancelled ones excluded).
  var runningCount: Int {
    registry.withValue { $0.running.count }
  }

  /// The tags of the effects still running, each once, smallest first.
  var runningTags: [Int] {
    registry.withValue { Set($0.running.values.compactMap(\.tag)).sorted() }
  }

  /// The tasks of the effects still running.
  var runningTasks: [Task<Void, Never>] {
    registry.withValue { $0.running.values.compactMap(\.task) }
  }
}
