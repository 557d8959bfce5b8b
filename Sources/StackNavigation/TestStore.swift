import Foundation

/// How thoroughly a ``TestStore`` asks a test to describe what happens.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every running effect must be asserted.
  case on
  /// Only what the test asserts is checked; unasserted changes and actions are allowed.
  case off
}

/// A store for tests: each `send` and `receive` asserts how the state changes.
///
/// Exhaustive by default: a test fails on a state change it did not describe, an action an
/// effect sent that it did not `receive`, and an effect still running when the store goes away.
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
  public private(set) var state: State

  private var currentState: State
  private var received: [(action: Action, state: State)] = []
  private let reducer: any Reducer<State, Action>
  private let dependencies: DependencyValues
  private let runtime = EffectRuntime<Action>()
  private let location: SourceLocation

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
        fail(
          """
          Must handle \(received.count) received action(s) before sending an action:

          \(received.map { "  " + String(customDumping: $0.action) }.joined(separator: "\n"))
          """, at: here)
      }
      received.removeAll()
      state = currentState
    }
    let before = currentState
    let (tasks, after) = process(action, recordAsReceived: false)
    check(expected, before: before, after: after, action: action, at: here)
    state = after
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

  /// Asserts that an effect sent an action in the given case, and how it changed the state.
  ///
  /// Waits up to `timeout` for the action. With exhaustivity off, actions in other cases are
  /// skipped.
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await receive(
      matching: { $0[case: actionCase] != nil },
      description: "an action matching \(actionCase)",
      timeout: timeout, assert: expected,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent the given action, and how it changed the state.
  public func receive(
    _ action: Action,
    timeout: Duration? = nil,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      matching: { $0 == action },
      description: String(customDumping: action),
      timeout: timeout, assert: expected,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits until every effect is done; fails when they are still running after `timeout`.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    while runtime.runningCount > 0 {
      if ContinuousClock.now >= deadline {
        fail(
          "\(runtime.runningCount) effect(s) still running after \(timeout ?? self.timeout).",
          at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return
      }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  /// Forgets the actions received so far without asserting them.
  public func skipReceivedActions() async {
    await Task.yield()
    received.removeAll()
    state = currentState
  }

  /// Cancels the effects still running, so the test does not have to wait for them.
  public func skipInFlightEffects() async {
    runtime.cancelAll()
    await Task.yield()
  }

  // Not an `isolated deinit`: that runs without the task's task-local values, so Swift Testing
  // would not know which test the end-of-test failures belong to, and they would be lost. A test
  // releases its main-actor store on the main actor, where this runs in the test's own context.
  deinit {
    MainActor.assumeIsolated { reportUnfinishedWork() }
  }

  /// Fails on received actions nobody asserted and on effects still running (when exhaustive),
  /// then forgets the actions and cancels the effects.
  func reportUnfinishedWork() {
    if exhaustivity == .on {
      if !received.isEmpty {
        fail(
          """
          The store received \(received.count) unexpected action(s):

          \(received.map { "  " + String(customDumping: $0.action) }.joined(separator: "\n"))

          Assert them with 'receive', or turn exhaustivity off.
          """, at: location)
      }
      if runtime.runningCount > 0 {
        fail(
          """
          \(runtime.runningCount) effect(s) are still running at the end of the test.

          Wait for them with 'receive' or 'finish()', cancel them from the feature, or skip \
          them with 'skipInFlightEffects()'.
          """, at: location)
      }
    }
    received.removeAll()
    runtime.cancelAll()
  }

  // MARK: - Internals

  private func receive(
    matching matches: (Action) -> Bool,
    description: String,
    timeout: Duration?,
    assert expected: ((inout State) throws -> Void)?,
    at here: SourceLocation
  ) async {
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    while true {
      while !received.isEmpty {
        let (action, after) = received.removeFirst()
        if matches(action) {
          check(expected, before: state, after: after, action: action, at: here)
          state = after
          for _ in 0..<10 { await Task.yield() }
          return
        }
        if exhaustivity == .on {
          fail(
            """
            Expected to receive \(description), but received:

              \(String(customDumping: action))
            """, at: here)
          state = after
          return
        }
        state = after
      }
      if ContinuousClock.now >= deadline {
        fail("Expected to receive \(description), but none arrived.", at: here)
        return
      }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  /// Processes an action and the actions its effects send right away; returns the tasks of its
  /// asynchronous work and the state right after the action itself.
  private func process(
    _ action: Action,
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
      let started = runtime.start(effect) { [weak self] action in
        await self?.receiveFromEffect(action)
      }
      queue.append(contentsOf: started.immediate.map { ($0, true) })
      tasks.append(contentsOf: started.tasks)
    }
    return (tasks, stateAfterAction ?? currentState)
  }

  private func receiveFromEffect(_ action: Action) {
    guard !Task.isCancelled else { return }
    _ = process(action, recordAsReceived: true)
  }

  private func check(
    _ expected: ((inout State) throws -> Void)?,
    before: State,
    after: State,
    action: Action,
    at here: SourceLocation
  ) {
    var expectedState = exhaustivity == .on ? before : after
    do {
      try expected?(&expectedState)
    } catch {
      fail("The assertion threw an error: \(error)", at: here)
      return
    }
    guard expectedState != after else { return }
    let difference =
      diff(expectedState, after, format: .proportional)
      .map { "\($0.indent(by: 4))\n\n(Expected: −, Actual: +)" }
      ?? "The states differ but print the same."
    fail(
      exhaustivity == .on
        ? "A state change does not match expectation:\n\n\(difference)"
        : "An asserted state change does not match:\n\n\(difference)",
      at: here)
  }

  private func fail(_ message: String, at location: SourceLocation) {
    reportFailure(
      message,
      fileID: location.fileID, filePath: location.filePath,
      line: location.line, column: location.column)
  }
}

/// A convenience for `TestStore<R.State, R.Action>`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action>
where R.State: Equatable & Sendable, R.Action: Sendable

/// The asynchronous work started by one ``TestStore`` `send`.
public struct TestStoreTask: Sendable {
  let tasks: [Task<Void, Never>]

  /// Waits until the work is done.
  public func finish() async {
    for task in tasks { await task.value }
  }

  /// Cancels the work.
  public func cancel() async {
    for task in tasks { task.cancel() }
    await Task.yield()
  }
}

extension String {
  func indent(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { indentation + $0 }
      .joined(separator: "\n")
  }
}
