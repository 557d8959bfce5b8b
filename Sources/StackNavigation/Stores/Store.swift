/// What a store did with one action: the action, and the state before and after it.
public struct StoreTransition<State, Action> {
  /// The action the store processed.
  public let action: Action
  /// The state before the action.
  public let stateBefore: State
  /// The state after the action.
  public let stateAfter: State
  /// What the reducer drew from `\.uuid`, `\.date`, `\.withRandomNumberGenerator` and
  /// ``journaledDraw(_:_:)`` while it ran for the action, in order; empty for a store that does
  /// not journal draws.
  public var draws: [DependencyDraw] = []

  init(action: Action, stateBefore: State, stateAfter: State, draws: [DependencyDraw] = []) {
    self.action = action
    self.stateBefore = stateBefore
    self.stateAfter = stateAfter
    self.draws = draws
  }
}

extension StoreTransition: Sendable where State: Sendable, Action: Sendable {}

/// Runs a feature: processes actions one at a time, in order, runs their effects and feeds the
/// actions those effects send back in.
///
/// A store is an actor: any task may send to it, and a service can hold thousands of them,
/// one per session, without a main thread.
///
/// ```swift
/// let store = Store(initialState: RootFeature.State()) { RootFeature() }
/// try await store.send(.path(.push(id: 0, state: .counter(.init()))))
/// ```
public actor Store<State: Sendable, Action: Sendable> {
  /// Sees every action before its result is kept; throwing rejects the action.
  ///
  /// It may suspend (a recording store waits there for its journal's commit): the store
  /// processes no other action until it returns, so actions are still seen one at a time, in
  /// the order they were sent, and the thread is free for other stores meanwhile. It must not
  /// await a `send` to its own store: that send waits for the observer to return.
  public typealias Observer = @Sendable (StoreTransition<State, Action>) async throws -> Void

  /// The current state.
  public private(set) var state: State

  private let reducer: any Reducer<State, Action>
  private let runtime = EffectRuntime<Action>()
  private let observer: Observer?
  private let onEffectFailure: (@Sendable (Action, any Error) -> Void)?
  /// The dependencies the reducer runs with when the store journals its draws: those in force
  /// where the store was created, with the drawing ones wrapped (``DrawCapture``).
  private let drawing: DependencyValues?
  /// Whether an action is being processed; those sent meanwhile wait in `waitingTurns`, in
  /// order. Needed because the observer may suspend, and an actor runs other calls meanwhile.
  private var isProcessing = false
  private var waitingTurns: [CheckedContinuation<Void, Never>] = []

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  ///   - observer: Sees every action the store processes — sent by a caller or by an effect —
  ///     with the state before and after, before the new state is kept and before the action's
  ///     effects start. When it throws, the action is rejected: the state stays as it was, the
  ///     effects do not run, and the error reaches the caller of ``send(_:)`` (or
  ///     `onEffectFailure` for an action an effect sent).
  ///   - onEffectFailure: Receives actions sent by effects that the observer rejected.
  public init<R: Reducer>(
    initialState: R.State,
    @ReducerBuilder<State, Action> reducer: sending () -> R,
    observer: Observer? = nil,
    onEffectFailure: (@Sendable (Action, any Error) -> Void)? = nil
  ) where R.State == State, R.Action == Action {
    self.state = initialState
    self.reducer = reducer()
    self.observer = observer
    self.onEffectFailure = onEffectFailure
    self.drawing = nil
  }

  /// Creates a store whose reducer runs, for every action, with `drawing` — the dependencies in
  /// force where its creator was made, as the Composable Architecture's store runs with those of
  /// its creation, wrapped by `journalingDraws()` — and with what it draws from them collected
  /// into each transition's ``StoreTransition/draws``: a recording store journals them.
  package init<R: Reducer>(
    initialState: R.State,
    reducer: sending () -> R,
    drawingWith drawing: DependencyValues,
    observer: @escaping Observer,
    onEffectFailure: (@Sendable (Action, any Error) -> Void)?
  ) where R.State == State, R.Action == Action {
    self.state = initialState
    self.reducer = reducer()
    self.observer = observer
    self.onEffectFailure = onEffectFailure
    self.drawing = drawing
  }

  /// Sends an action: the reducer runs, the observer sees it, effects start, and actions that
  /// effects send right away are processed before this returns.
  ///
  /// Returns a task that finishes when the asynchronous effects of this action are done.
  @discardableResult
  public func send(_ action: Action) async throws -> StoreTask {
    await takeTurn()
    defer { endTurn() }
    return StoreTask(tasks: try await process(action))
  }

  /// Sends an action when the state, once it is this action's turn, passes `isPresent`.
  func send(
    _ action: Action,
    if isPresent: (State) -> Bool,
    otherwise absent: () -> any Error
  ) async throws -> StoreTask {
    await takeTurn()
    defer { endTurn() }
    guard isPresent(state) else { throw absent() }
    return StoreTask(tasks: try await process(action))
  }

  /// Waits until no effect of this store is running.
  public func waitForEffects() async {
    while true {
      let tasks = runtime.runningTasks
      if tasks.isEmpty { return }
      for task in tasks { await task.value }
    }
  }

  /// Cancels every effect that is running.
  public func cancelEffects() {
    runtime.cancelAll()
  }

  private func receiveFromEffect(_ action: Action) async {
    await takeTurn()
    defer { endTurn() }
    // Checked here, once it is this action's turn, so an element's effect cannot slip an action
    // in after the action that popped the element cancelled it.
    guard !Task.isCancelled else { return }
    do {
      _ = try await process(action)
    } catch {
      onEffectFailure?(action, error)
    }
  }

  /// Waits until no other action is being processed.
  private func takeTurn() async {
    guard isProcessing else {
      isProcessing = true
      return
    }
    await withCheckedContinuation { waitingTurns.append($0) }
  }

  /// Hands the turn to the next waiting action, if any.
  private func endTurn() {
    if waitingTurns.isEmpty {
      isProcessing = false
    } else {
      waitingTurns.removeFirst().resume()
    }
  }

  private func process(_ action: Action) async throws -> [Task<Void, Never>] {
    // The actions effects sent at once, in order, from `sent` on; most actions send none, and
    // then nothing is allocated.
    var queue: [Action] = []
    var sent = 0
    var next: Action? = action
    var tasks: [Task<Void, Never>] = []
    var isFirst = true
    while let action = next {
      next = nil
      var newState = state
      let effect: Effect<Action>
      var draws: [DependencyDraw] = []
      if let drawing {
        let capture = DrawCapture.recording()
        effect = DependencyValues.$_current.withValue(drawing) {
          capture.run { reducer.reduce(into: &newState, action: action) }
        }
        draws = capture.values
      } else {
        effect = reducer.reduce(into: &newState, action: action)
      }
      if let observer {
        do {
          try await observer(
            StoreTransition(
              action: action, stateBefore: state, stateAfter: newState, draws: draws))
        } catch where !isFirst {
          throw FollowUpActionRejected(
            action: String(customDumping: action), underlying: error)
        }
      }
      isFirst = false
      state = newState
      // `.none` starts nothing: no closure for its actions to come back through.
      if !effect.operations.isEmpty {
        // An action an effect sends back is processed with the dependencies of this send, not
        // with those the effect runs under: inside them a presented child's or a stack
        // element's scope would name the cancellation IDs of the reducers above it wrongly, and
        // a child that dismissed itself would keep its other effects running.
        let started = withEscapedDependencies { dependencies in
          runtime.start(effect) { [weak self] action in
            await dependencies.yield { await self?.receiveFromEffect(action) }
          }
        }
        queue.append(contentsOf: started.immediate)
        tasks.append(contentsOf: started.tasks)
      }
      if sent < queue.count {
        next = queue[sent]
        sent += 1
      }
    }
    return tasks
  }

  deinit {
    runtime.cancelAll()
  }
}

/// The action sent was kept, but an action its effects sent at once was rejected by the store's
/// observer (for a recording store: it could not be journaled).
///
/// The state holds the sent action's change and those of the actions before the rejected one;
/// the rejected action and the ones after it were dropped. Do not send the first action again.
public struct FollowUpActionRejected: Error, CustomStringConvertible {
  /// The rejected action, dumped.
  public let action: String
  /// Why the observer rejected it.
  public let underlying: any Error

  public var description: String {
    "The action was kept, but the action it sent at once was rejected: \(underlying)\n"
      + "Rejected: \(action)"
  }
}

/// A convenience for `Store<R.State, R.Action>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// The asynchronous work started by one `send`.
public struct StoreTask: Sendable {
  let tasks: [Task<Void, Never>]

  /// Waits until the work is done.
  public func finish() async {
    for task in tasks { await task.value }
  }

  /// Cancels the work.
  public func cancel() {
    for task in tasks { task.cancel() }
  }

  /// Whether the work has been cancelled.
  public var isCancelled: Bool {
    tasks.allSatisfy(\.isCancelled)
  }
}
