import Foundation
@_spi(Internals) import CasePaths

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

  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)-(CaseKeyPath<Action,Value>,_,_,_,_,_,_)`` waits for an action.
  public var timeout: Duration = .seconds(5)

  /// The state as of the last assertion. Read inside an assertion's closure, it is the state
  /// before the action.
  public internal(set) var state: State

  /// The dependencies of the feature and its effects, and of the assertions' closures. Set one
  /// mid-test to change what the next actions see: `store.dependencies.date.now = …`.
  public var dependencies: DependencyValues

  /// Whether every task runs serially on the main thread, as long as the store lives: set by the
  /// store when it is created and put back when it goes away, as the Composable Architecture's
  /// test store does.
  public var useMainSerialExecutor: Bool {
    get { uncheckedUseMainSerialExecutor }
    set { uncheckedUseMainSerialExecutor = newValue }
  }
  /// This store's turn with the main serial executor.
  private let mainSerialExecutorLease = MainSerialExecutorLease()

  /// Whether the feature dismissed itself through `@Dependency(\.dismiss)`; a dismissed store
  /// takes no more actions.
  public private(set) var isDismissed = false

  var currentState: State
  var received: [(action: Action, state: State)] = []
  /// Each action whose effects may still run, and where it was sent from, by the tag its
  /// effects carry.
  var effectOrigins: [Int: (action: Action, location: SourceLocation)] = [:]
  var nextEffectTag = 0
  let reducer: any Reducer<State, Action>
  let runtime: EffectRuntime<Action>
  /// What the feature's own `@Dependency(\.dismiss)` does, set once the store exists.
  private let dismissal: LockIsolated<(@Sendable () async -> Void)?>
  let location: SourceLocation

  /// Creates a test store.
  ///
  /// The reducer and the initial state are built with the overridden dependencies, so a state
  /// whose initializer reads `@Dependency(\.date.now)` sees the test's date.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature under test.
  ///   - prepareDependencies: Overrides dependencies for the reducer, its effects, the initial
  ///     state and the assertions; called once.
  ///   - fileID: The source location of the call, shown in a failure.
  ///   - filePath: The source location of the call, shown in a failure.
  ///   - line: The source location of the call, shown in a failure.
  ///   - column: The source location of the call, shown in a failure.
  @_disfavoredOverload
  public init<R: Reducer>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    let (reducer, initialState, dependencies) = withDependencies {
      prepareDependencies(&$0)
    } operation: {
      (reducer(), initialState(), DependencyValues._current)
    }
    self.state = initialState
    self.currentState = initialState
    self.reducer = reducer
    self.dependencies = dependencies
    self.location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let dismissal = LockIsolated<(@Sendable () async -> Void)?>(nil)
    self.dismissal = dismissal
    self.runtime = EffectRuntime(rootDismiss: DismissHandler { await dismissal.value?() })
    dismissal.setValue { [weak self] in await self?.dismissedByFeature() }
  }

  /// Creates a test store from one reducer, as the Composable Architecture's test store takes it
  /// (its signature, `file` label included): the state's type may then come from the reducer,
  /// `TestStore(initialState: .init()) { Parent() }`. A closure of several reducers goes through
  /// ``ReducerBuilder`` instead.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      initialState: initialState(), reducer: { reducer() },
      withDependencies: prepareDependencies,
      fileID: fileID, filePath: filePath, line: line, column: column)
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
    guard !isDismissed else {
      fail("Can't send action to dismissed test store.", at: here)
      return TestStoreTask(tasks: [], timeout: timeout)
    }
    if !received.isEmpty {
      // When exhaustive the actions stay, so the test can still receive them.
      var actions = ""
      customDump(received.map { $0.action }, to: &actions)
      report(
        """
        Must handle \(received.count) received \
        action\(received.count == 1 ? "" : "s") before sending an action.

        Unhandled actions: \(actions)
        """, at: here)
    }
    switch exhaustivity {
    case .on:
      break
    case .off(showSkippedAssertions: true):
      skipReceived(strict: false, at: here)
    case .off(showSkippedAssertions: false):
      received.removeAll()
      state = currentState
    }
    let before = currentState
    let (tasks, after) = process(action, origin: here, recordAsReceived: false)
    check(expected, before: before, after: after, at: here)
    state = after
    await runtime.waitUntilBegun()
    // Time for the effects just started to run up to their first suspension, as the
    // Composable Architecture's store gives them.
    await Task.megaYield()
    return TestStoreTask(tasks: tasks, timeout: timeout)
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

  /// Asserts the current state without sending an action: `expected` receives the state as of
  /// the last assertion and must turn it into the current one.
  public func assert(
    _ expected: @escaping (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    check(
      expected, before: state, after: currentState, skipUnnecessaryModifyFailure: true,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs `operation` with the store at another exhaustivity, then puts the old one back.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () throws -> R
  ) rethrows -> R {
    let previous = self.exhaustivity
    defer { self.exhaustivity = previous }
    self.exhaustivity = exhaustivity
    return try operation()
  }

  /// Runs asynchronous `operation` (sends, receives, a clock advanced) with the store at another
  /// exhaustivity, then puts the old one back.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    defer { self.exhaustivity = previous }
    self.exhaustivity = exhaustivity
    return try await operation()
  }

  // Not an `isolated deinit`, and no hop to the main thread: either runs without the releasing
  // task's task-local values, so Swift Testing would not know which test the end-of-test failures
  // belong to. A test that is not isolated to the main actor (a nonisolated `async` XCTest method,
  // any Swift Testing test by default) releases its store on a cooperative thread; the checks run
  // there, in the test's own context. That is safe although the store is main-actor isolated:
  // a deinitializing object has no other reference (its effects hold it weakly, and a weak
  // reference to it is already nil), so nothing else can touch its state meanwhile.
  deinit {
    mainSerialExecutorLease.end()
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
      if !started.tasks.isEmpty { effectOrigins[tag] = (action, origin) }
      queue.append(contentsOf: started.immediate.map { ($0, true) })
      tasks.append(contentsOf: started.tasks)
    }
    forgetFinishedEffects()
    return (tasks, stateAfterAction ?? currentState)
  }

  /// Drops the origins of effects that are no longer running.
  func forgetFinishedEffects() {
    let running = Set(runtime.runningTags)
    effectOrigins = effectOrigins.filter { running.contains($0.key) }
  }

  func receiveFromEffect(_ action: Action, origin: SourceLocation) {
    guard !Task.isCancelled, !isDismissed else { return }
    _ = process(action, origin: origin, recordAsReceived: true)
  }

  /// The feature dismissed itself through `@Dependency(\.dismiss)`: its effects are cancelled
  /// and the store takes no more actions.
  func dismissedByFeature() {
    isDismissed = true
    runtime.cancelAll()
    forgetFinishedEffects()
  }

  /// Checks the state after an action against what the test expects, as exhaustivity asks.
  ///
  /// - Parameters:
  ///   - expected: The test's closure, given the state before (exhaustive) or after (not).
  ///   - skipUnnecessaryModifyFailure: Whether a closure that changes nothing is accepted.
  func check(
    _ expected: ((inout State) throws -> Void)?,
    before: State,
    after: State,
    skipUnnecessaryModifyFailure: Bool = false,
    at here: SourceLocation
  ) {
    let exhaustive = exhaustivity == .on
    let dependencies = self.dependencies
    let update = expected.map { original in
      { (state: inout State) throws -> Void in
        try XCTModifyLocals.$isExhaustive.withValue(exhaustive) {
          try withDependencies { $0 = dependencies } operation: {
            try forwardingIssues { try original(&state) }
          }
        }
      }
    }
    func mismatch(_ expectedState: State, exhaustivity override: Exhaustivity? = nil) {
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
      report("\(heading).\n\n\(difference)", exhaustivity: override, at: here)
    }
    func unnecessaryModify(_ expectedState: State) {
      guard !skipUnnecessaryModifyFailure, expectedState == before, expected != nil else { return }
      report(
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to state is \
        expected, omit the trailing closure.
        """, at: here)
    }
    do {
      switch exhaustivity {
      case .on:
        var expectedState = before
        try update?(&expectedState)
        if expectedState != after {
          mismatch(expectedState)
        } else {
          unnecessaryModify(expectedState)
        }
      case .off(let showSkippedAssertions):
        var expectedState = after
        try update?(&expectedState)
        if expectedState != after {
          mismatch(expectedState, exhaustivity: .on)
        } else if showSkippedAssertions {
          // What the closure makes of the state before shows what the test did not assert.
          // Failures inside it (an `XCTModify` of a child that only appears later) are not the
          // test's: nothing it reports is kept.
          var fromBefore = before
          if let update {
            withIssueReporters([]) {
              do { try update(&fromBefore) } catch {}
            }
          }
          if fromBefore != after {
            mismatch(fromBefore)
          } else {
            unnecessaryModify(fromBefore)
          }
        } else {
          unnecessaryModify(expectedState)
        }
      }
    } catch {
      fail("Threw error: \(error)", at: here)
    }
  }

  /// Reports a failed assertion as the store's exhaustivity (or `override`) asks: a failure
  /// when exhaustive, a skipped assertion when showing them, nothing otherwise.
  func report(
    _ message: String, exhaustivity override: Exhaustivity? = nil, at here: SourceLocation
  ) {
    switch override ?? exhaustivity {
    case .on:
      fail(message, at: here)
    case .off(showSkippedAssertions: true):
      reportSkippedAssertion(
        message, fileID: here.fileID, filePath: here.filePath, line: here.line,
        column: here.column)
    case .off(showSkippedAssertions: false):
      break
    }
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

/// A test store's hold on the main serial executor: it is turned on when a store is created and,
/// when the store goes, put back as it was before the store — or, while stores created after it
/// are alive, left for the newest of them to put back. Stores that end in any order (several
/// tests at once, or a store released late on another thread) leave it as it was before the
/// first of them.
final class MainSerialExecutorLease: Sendable {
  /// The leases in force, oldest first, each with the value to put back when it ends.
  private static let leases = LockIsolated<[(lease: ObjectIdentifier, original: Bool)]>([])

  init() {
    Self.leases.withValue { leases in
      leases.append((ObjectIdentifier(self), uncheckedUseMainSerialExecutor))
      uncheckedUseMainSerialExecutor = true
    }
  }

  /// Ends the lease: the newest puts the executor back; an older one hands what it found to the
  /// lease after it.
  func end() {
    let id = ObjectIdentifier(self)
    Self.leases.withValue { leases in
      guard let index = leases.firstIndex(where: { $0.lease == id }) else { return }
      let ended = leases.remove(at: index)
      if index == leases.count {
        uncheckedUseMainSerialExecutor = ended.original
      } else {
        leases[index].original = ended.original
      }
    }
  }
}
