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
  public private(set) var state: State

  private var currentState: State
  private var received: [(action: Action, state: State)] = []
  /// Where each action whose effects may still run was sent from, by the tag its effects carry.
  private var effectOrigins: [Int: SourceLocation] = [:]
  private var nextEffectTag = 0
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
  /// Waits up to `timeout` for the action while effects are running. With exhaustivity off,
  /// actions in other cases are skipped.
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
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpected: { received in
        var dump = ""
        customDump(received, to: &dump, indent: 2)
        return dump
      },
      timeout: timeout, assert: expected,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action in the given case with the given value, and how it
  /// changed the state: `receive(\.path.popFrom, 0)`.
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await receive(
      matching: { $0[case: actionCase] == value },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpected: { received in
        var dump = ""
        if received[case: actionCase] != nil,
          let difference = diff(actionCase(value), received, format: .proportional)
        {
          dump = "\(difference.indent(by: 2))\n\n(Expected: −, Actual: +)"
        } else {
          customDump(received, to: &dump, indent: 2)
        }
        return dump
      },
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
    var expectedDump = ""
    customDump(action, to: &expectedDump, indent: 2)
    await receive(
      matching: { $0 == action },
      failureMessage: """
        Expected to receive the following action, but didn't:

        \(expectedDump)
        """,
      unexpected: { received in
        diff(action, received, format: .proportional)
          .map { "\($0.indent(by: 4))\n\n(Expected: −, Received: +)" }
          ?? """
          Expected:
          \(String(describing: action).indent(by: 2))

          Received:
          \(String(describing: received).indent(by: 2))
          """
      },
      timeout: timeout, assert: expected,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits until every effect is done; fails when they are still running after `timeout`, and
  /// (when exhaustive) when actions were received that the test did not assert.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let here = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnreceivedActions(at: here)
    let duration = timeout ?? self.timeout
    let deadline = ContinuousClock.now + duration
    while runtime.runningCount > 0 {
      if ContinuousClock.now >= deadline {
        if exhaustivity == .on {
          fail(
            """
            Expected effects to finish, but there are still effects in-flight\
            \(duration > .zero ? " after \(duration)" : "").

            \(waitingAdvice(duration: duration))
            """, at: here)
        }
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
  ///
  /// An effect still running is reported at the `send` whose action started it (or started the
  /// effect that sent the action that started it), once per action.
  func reportUnfinishedWork() {
    reportUnreceivedActions(at: location)
    if exhaustivity == .on {
      for tag in runtime.runningTags {
        fail(Self.effectStillRunning, at: effectOrigins[tag] ?? location)
      }
    }
    received.removeAll()
    runtime.cancelAll()
  }

  /// The number of effects still running, for tests of the store itself.
  var runningEffectCount: Int { runtime.runningCount }

  static var effectStillRunning: String {
    """
    An effect returned for this action is still running. It must complete before the end of \
    the test.

    To fix, inspect any effects the reducer returns for this action and ensure that all of \
    them complete by the end of the test. There are a few reasons why an effect may not have \
    completed:

    If using async/await in your effect, it may need a little bit of time to properly \
    finish. To fix you can simply perform "await store.finish()" at the end of your test.

    If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", etc.), \
    make sure that you wait enough time for it to perform the effect. If you are using a test \
    clock/scheduler, advance it so that the effects may complete, or consider using an \
    immediate clock/scheduler to immediately perform the effect instead.

    If you are returning a long-living effect (timers, notifications, subjects, etc.), \
    then make sure those effects are torn down by marking the effect ".cancellable" and \
    returning a corresponding cancellation effect ("Effect.cancel") from another action, or, \
    if your effect is driven by a Combine subject, send it a completion.

    If you do not wish to assert on these effects, perform "await \
    store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
    "store.exhaustivity = .off".
    """
  }

  /// Fails, when exhaustive, on actions effects sent that the test did not receive.
  private func reportUnreceivedActions(at here: SourceLocation) {
    guard exhaustivity == .on, !received.isEmpty else { return }
    let actions = received
      .map { "    " + debugCaseOutput($0.action, abbreviated: true) }
      .joined(separator: "\n")
    fail(
      """
      The store received \(received.count) unexpected \
      action\(received.count == 1 ? "" : "s").

        Unhandled actions:
      \(actions)

      To fix, explicitly assert against these actions using "store.receive", skip these actions \
      by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
      store: "store.exhaustivity = .off".
      """, at: here)
  }

  /// What to do when effects are still running after waiting `duration`.
  private func waitingAdvice(duration: Duration) -> String {
    let timeoutAdvice =
      duration != self.timeout
      ? #"try increasing the duration of this assertion's "timeout""#
      : #"configure this assertion with an explicit "timeout""#
    return """
      There are effects in-flight. If the effect that delivers this action uses a \
      clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
      enough time for it to perform the effect. If you are using a test \
      clock/scheduler, advance it so that the effects may complete, or consider using \
      an immediate clock/scheduler to immediately perform the effect instead.

      If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
      \(timeoutAdvice).
      """
  }

  // MARK: - Internals

  private func receive(
    matching matches: (Action) -> Bool,
    failureMessage: @autoclosure () -> String,
    unexpected: (Action) -> String,
    timeout: Duration?,
    assert expected: ((inout State) throws -> Void)?,
    at here: SourceLocation
  ) async {
    if runtime.runningCount > 0 {
      await waitForReceivedAction(matching: matches, timeout: timeout, at: here)
    }
    guard !received.isEmpty else {
      fail(failureMessage(), at: here)
      return
    }
    if exhaustivity == .off {
      guard received.contains(where: { matches($0.action) }) else {
        fail(failureMessage(), at: here)
        return
      }
      while let first = received.first, !matches(first.action) {
        received.removeFirst()
        state = first.state
      }
    }
    let (action, after) = received.removeFirst()
    if matches(action) {
      check(expected, before: state, after: after, at: here)
    } else {
      fail(
        """
        Received unexpected action:

        \(unexpected(action))
        """, at: here)
    }
    state = after
    for _ in 0..<10 { await Task.yield() }
  }

  /// Waits until an action arrives (when exhaustive) or a matching one (when not), or reports
  /// that none did within `timeout`.
  private func waitForReceivedAction(
    matching matches: (Action) -> Bool,
    timeout: Duration?,
    at here: SourceLocation
  ) async {
    let duration = timeout ?? self.timeout
    let deadline = ContinuousClock.now + duration
    while true {
      switch exhaustivity {
      case .on where !received.isEmpty: return
      case .off where received.contains(where: { matches($0.action) }): return
      default: break
      }
      if ContinuousClock.now >= deadline { break }
      try? await Task.sleep(for: .milliseconds(1))
    }
    let advice =
      runtime.runningCount == 0
      ? """
        There are no in-flight effects that could deliver this action. Could the effect you \
        expected to deliver this action have been cancelled?
        """
      : waitingAdvice(duration: duration)
    fail(
      """
      Expected to receive \(exhaustivity == .on ? "an action" : "a matching action"), but \
      received none\(duration > .zero ? " after \(duration)" : "").

      \(advice)
      """, at: here)
  }

  /// Processes an action and the actions its effects send right away; returns the tasks of its
  /// asynchronous work and the state right after the action itself.
  ///
  /// `origin` is where the test sent the action (or the action whose effects sent it); the
  /// effects started here are reported there when they are still running at the end.
  private func process(
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

  private func receiveFromEffect(_ action: Action, origin: SourceLocation) {
    guard !Task.isCancelled else { return }
    _ = process(action, origin: origin, recordAsReceived: true)
  }

  private func check(
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

  /// Cancels the work and waits until it has stopped, so the store no longer counts it as
  /// running when the test ends.
  public func cancel() async {
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
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
