/// Work a reducer asks the store to do after it has changed the state: nothing, an action to
/// send right away, or asynchronous work that may send actions back.
public struct Effect<Action> {
  indirect enum Operation {
    case send(Action)
    case run(TaskPriority?, @Sendable (Send<Action>) async -> Void)
    case cancel(EffectID)
    case cancellable(EffectID, cancelInFlight: Bool, [Operation])
    /// Effects run one after another, each an effect's operations.
    case concatenate([[Operation]])
  }

  let operations: [Operation]

  init(operations: [Operation]) {
    self.operations = operations
  }

  /// An effect that does nothing.
  public static var none: Self { Self(operations: []) }

  /// An effect that sends an action right away, before the current `send` returns.
  public static func send(_ action: Action) -> Self {
    Self(operations: [.send(action)])
  }

  /// An effect that runs asynchronous work, which may send actions back into the store.
  ///
  /// The work runs with the dependencies in place when the effect was created. Errors other
  /// than cancellation go to `handler` when given, and are reported as an issue otherwise.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    withEscapedDependencies { dependencies in
      Self(operations: [
        .run(priority) { send in
          await dependencies.yield {
            do {
              try await operation(send)
            } catch is CancellationError {
            } catch {
              if let handler {
                await handler(error, send)
              } else {
                reportFailure(
                  "An 'Effect.run' threw an unhandled error: \(error)",
                  fileID: fileID, filePath: filePath, line: line, column: column
                )
              }
            }
          }
        }
      ])
    }
  }

  /// Runs several effects side by side.
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// Runs several effects side by side.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    // A closure, not `\.operations`: a key path in generic code is built again on every call.
    Self(operations: effects.flatMap { $0.operations })
  }

  /// Runs this effect and another side by side.
  public func merge(with other: Self) -> Self {
    Self(operations: operations + other.operations)
  }

  /// Makes this effect cancellable with ``cancel(id:)``; with `cancelInFlight`, first cancels
  /// the work already running under the same ID.
  ///
  /// IDs are scoped to the stack element the reducer runs for: the same ID in two elements
  /// names two different pieces of work.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    Self(
      operations: [
        .cancellable(EffectID(ScopedCancelID(id)), cancelInFlight: cancelInFlight, operations)
      ])
  }

  /// An effect that cancels the work running under an ID.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operations: [.cancel(EffectID(ScopedCancelID(id)))])
  }

  /// Transforms the actions this effect sends.
  public func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    Effect<NewAction>(operations: operations.map { $0.map(transform) })
  }

  /// Wraps the asynchronous work of this effect, e.g. to install a task-local value around it.
  func wrapRuns(
    _ wrap: @escaping @Sendable (Send<Action>, () async -> Void) async -> Void
  ) -> Self {
    Self(operations: operations.map { $0.wrapRuns(wrap) })
  }
}

extension Effect: Sendable where Action: Sendable {}
extension Effect.Operation: Sendable where Action: Sendable {}

extension Effect.Operation {
  func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction>.Operation {
    switch self {
    case let .send(action):
      return .send(transform(action))
    case let .run(priority, operation):
      return .run(priority) { send in
        await operation(Send { await send(transform($0)) })
      }
    case let .cancel(id):
      return .cancel(id)
    case let .cancellable(id, cancelInFlight, operations):
      return .cancellable(id, cancelInFlight: cancelInFlight, operations.map { $0.map(transform) })
    case let .concatenate(effects):
      return .concatenate(effects.map { $0.map { $0.map(transform) } })
    }
  }

  func wrapRuns(
    _ wrap: @escaping @Sendable (Send<Action>, () async -> Void) async -> Void
  ) -> Self {
    switch self {
    case .send, .cancel:
      return self
    case let .run(priority, operation):
      return .run(priority) { send in await wrap(send) { await operation(send) } }
    case let .cancellable(id, cancelInFlight, operations):
      return .cancellable(id, cancelInFlight: cancelInFlight, operations.map { $0.wrapRuns(wrap) })
    case let .concatenate(effects):
      return .concatenate(effects.map { $0.map { $0.wrapRuns(wrap) } })
    }
  }
}

/// Sends actions from an effect back into its store.
///
/// Once the effect's task is cancelled (for example because its stack element was popped),
/// sending does nothing.
public struct Send<Action>: Sendable {
  let send: @Sendable (Action) async -> Void

  /// Creates a sender from a closure.
  public init(send: @escaping @Sendable (Action) async -> Void) {
    self.send = send
  }

  /// Sends an action back into the store, unless the effect has been cancelled.
  public func callAsFunction(_ action: Action) async {
    guard !Task.isCancelled else { return }
    await send(action)
  }
}

/// A type-erased, sendable cancellation ID.
struct EffectID: Hashable, @unchecked Sendable {
  let base: AnyHashable

  init(_ base: some Hashable & Sendable) {
    self.base = AnyHashable(base)
  }

  /// The feature's own ID this is, where the feature gave it, when cancelling it also reaches
  /// the features below (not the ID of a stack element, route or presented child).
  var featureID: ScopedCancelID? {
    guard let scoped = base.base as? ScopedCancelID, !(scoped.id.base is any NavigationEffectID)
    else { return nil }
    return scoped
  }

  /// Whether cancelling the feature's ID `asked` cancels work under this ID: the same ID, given
  /// where `asked` was or below.
  func isWithin(_ asked: ScopedCancelID) -> Bool {
    guard let mine = base.base as? ScopedCancelID else { return false }
    return mine.id == asked.id && mine.path.isWithin(asked.path)
  }
}

/// The ID of the effects of one stack element, route or presented child. Cancelling it cancels
/// that child's effects only: the same ID deeper down names another child (element #3 of a stack
/// inside element #1 is not element #3 of the outer stack).
protocol NavigationEffectID: Hashable, Sendable {}
