import Foundation

/// A store for tests: each `send` and `receive` asserts how the state changes.
///
/// Exhaustive by default: a test fails on a state change it did not describe, an action an
/// effect sent that it did not `receive`, and an effect still running when the store goes away
/// (reported at the `send` that started it). Failures read as the Composable Architecture's, so
/// expected-failure matchers written for its test store match here too.
///
/// ```swift
/// let store = TestStore(initialState: Feature.State(path: [.counter(.init(count: 3))])) {
///   Feature()
/// }
/// await store.send(\.path[id: 0].counter.incrementButtonTapped) {
///   $0.path[id: 0, case: \.counter]?.count = 4
/// }
/// await store.receive(\.path.popFrom) { $0.path[id: 0] = nil }
/// ```
@MainActor
public final class TestStore<State: Equatable & Sendable, Action: Sendable> {
  /// Whether every change must be asserted. `.on` by default.
  public var exhaustivity: Exhaustivity = .on

  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)`` waits for an action.
  public var timeout: Duration = .seconds(5)

  /// The state as of the last assertion.
  public internal(set) var state: State

  var currentState: State
  var received: [(action: Action, state: State)] = []
  /// Where each action whose effects may still run was sent from, by the tag its effects carry.
  var effectOrigins: [Int: SourceLocation] = [:]
  var nextEffectTag = 0
  let reducer: any Reducer<State, Action>
  let dependencies: DependencyValues
  let runtime = EffectRuntime<Action>()
  let location: SourceLocation

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature under test.
  ///   - prepareDependencies: Overrides dependencies for the reducer and its effects.
  public init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    self.state = initialState
    self.currentState = initialState
    self.reducer = reducer()
    var dependencies = DependencyValues._current
    prepareDependencies(&dependencies)
    self.dependencies = dependencies
    self.location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Sends an action and asserts how the state changes: `expected` receives the state before
  /// the action and must turn it into the state after.
  @discardableResult
  public func send(
    _ action: Action,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let here = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    if !received.isEmpty {
      if exhaustivity == .on {
        // The actions stay, so the test can still receive them.
        var actions = ""
        customDump(received.map { $0.action }, to: &actions)
        fail(
          """
          Must handle \(received.count) received \
          action\(received.count == 1 ? "" : "s") before sending an action.

          Unhandled actions: \(actions)
          """, at: here)
      } else {
        received.removeAll()
        state = currentState
      }
    }
    let before = currentState
    let (tasks, after) = process(action, origin: here, recordAsReceived: false)
    check(expected, before: before, after: after, at: here)
    state = after
    await runtime.waitUntilBegun()
    await Task.yield()
    return TestStoreTask(tasks: tasks)
  }

  /// Sends the action a case key path describes: `\.path[id: 0].counter.incrementButtonTapped`.
  @discardableResult
  public func send(
    _ action: CaseKeyPath<Action, Void>,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask where Action: CasePathable {
    await send(
      action(), assert: expected,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Sends the action a case key path with a value describes:
  /// `send(\.path[id: 0].addItem.titleChanged, "Milk")`.
  @discardableResult
  public func send<Value>(
    _ action: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask where Action: CasePathable {
    await send(
      action(value), assert: expected,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  // Not an `isolated deinit`, and no hop to the main thread: either runs without the releasing
  // task's task-local values, so Swift Testing would not know which test the end-of-test failures
  // belong to. A test that is not isolated to the main actor (a nonisolated `async` XCTest method,
  // any Swift Testing test by default) releases its store on a cooperative thread; the checks run
  // there, in the test's own context. That is safe although the store is main-actor isolated:
  // a deinitializing object has no other reference (its effects hold it weakly, and a weak
  // reference to it is already nil), so nothing else can touch its state meanwhile.
  deinit {
    if Thread.isMainThread {
      MainActor.assumeIsolated { reportUnfinishedWork() }
    } else {
      withExclusiveAccess { reportUnfinishedWork() }
    }
  }

  // MARK: - Internals

  /// Processes an action and the actions its effects send right away; returns the tasks of its
  /// asynchronous work and the state right after the action itself.
  ///
  /// `origin` is where the test sent the action (or the action whose effects sent it); the
  /// effects started here are reported there when they are still running at the end.
  func process(
    _ action: Action,
    origin: SourceLocation,
    recordAsReceived: Bool
  ) -> (tasks: [Task<Void, Never>], stateAfterAction: State) {
    var queue = [(action, recordAsReceived)]
    var tasks: [Task<Void, Never>] = []
    var stateAfterAction: State?
    while !queue.isEmpty {
      let (action, record) = queue.removeFirst()
      let effect = withDependencies {
        $0 = dependencies
      } operation: {
        reducer.reduce(into: &currentState, action: action)
      }
      if record { received.append((action, currentState)) }
      if stateAfterAction == nil { stateAfterAction = currentState }
      let tag = nextEffectTag
      nextEffectTag += 1
      let started = runtime.start(effect, tag: tag) { [weak self] action in
        await self?.receiveFromEffect(action, origin: origin)
      }
      if !started.tasks.isEmpty { effectOrigins[tag] = origin }
      queue.append(contentsOf: started.immediate.map { ($0, true) })
      tasks.append(contentsOf: started.tasks)
    }
    let running = Set(runtime.runningTags)
    effectOrigins = effectOrigins.filter { running.contains($0.key) }
    return (tasks, stateAfterAction ?? currentState)
  }

  func receiveFromEffect(_ action: Action, origin: SourceLocation) {
    guard !Task.isCancelled else { return }
    _ = process(action, origin: origin, recordAsReceived: true)
  }

  func check(
    _ expected: ((inout State) throws -> Void)?,
    before: State,
    after: State,
    at here: SourceLocation
  ) {
    var expectedState = exhaustivity == .on ? before : after
    do {
      try expected?(&expectedState)
    } catch {
      fail("Threw error: \(error)", at: here)
      return
    }
    guard expectedState != after else {
      if exhaustivity == .on, expected != nil, expectedState == before {
        fail(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to state \
          is expected, omit the trailing closure.
          """, at: here)
      }
      return
    }
    let difference =
      diff(expectedState, after, format: .proportional)
      .map { "\($0.indent(by: 4))\n\n(Expected: −, Actual: +)" }
      ?? """
      Expected:
      \(String(describing: expectedState).indent(by: 2))

      Actual:
      \(String(describing: after).indent(by: 2))
      """
    let heading =
      expected != nil
      ? "A state change does not match expectation"
      : "State was not expected to change, but a change occurred"
    fail("\(heading).\n\n\(difference)", at: here)
  }

  func fail(_ message: String, at location: SourceLocation) {
    reportFailure(
      message,
      fileID: location.fileID, filePath: location.filePath,
      line: location.line, column: location.column)
  }
}

/// A convenience for `TestStore<R.State, R.Action>`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action>
where R.State: Equatable & Sendable, R.Action: Sendable


/// Runs main-actor work on the current thread, for an object's `deinit` only: the object being
/// deinitialized has no other reference, so its main-actor state cannot be reached concurrently.
private func withExclusiveAccess(_ body: @MainActor () -> Void) {
  withoutActuallyEscaping(body) { body in
    unsafeBitCast(body, to: (() -> Void).self)()
  }
}
