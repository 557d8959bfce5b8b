import Foundation

// The end of a test: waiting for effects, skipping what the test does not assert, and the
// failures for work left unfinished.

extension TestStore {
  /// Waits until every effect is done; reports (as exhaustivity asks) effects still running
  /// after `timeout` and actions received that the test did not assert.
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
        report(
          """
          Expected effects to finish, but there are still effects in-flight\
          \(duration > .zero ? " after \(duration)" : "").

          \(waitingAdvice(duration: duration))
          """, at: here)
        return
      }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  /// Forgets the actions received so far without asserting them; the state becomes the state
  /// after the last of them. What was skipped is shown as a skipped assertion (see
  /// ``Exhaustivity/off(showSkippedAssertions:)``), unless the store hides skipped assertions.
  ///
  /// - Parameters:
  ///   - strict: Whether it is a failure when there is nothing to skip.
  ///   - fileID: The source location of the call, shown in a failure.
  ///   - filePath: The source location of the call, shown in a failure.
  ///   - line: The source location of the call, shown in a failure.
  ///   - column: The source location of the call, shown in a failure.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    for _ in 0..<20 { await Task.yield() }
    skipReceived(
      strict: strict,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Stops waiting for the effects still running, without cancelling them: the actions they
  /// send later still arrive, but the test no longer has to wait for them to finish. What was
  /// skipped is shown as for ``skipReceivedActions(strict:fileID:filePath:line:column:)``.
  ///
  /// - Parameters:
  ///   - strict: Whether it is a failure when no effect is running.
  ///   - fileID: The source location of the call, shown in a failure.
  ///   - filePath: The source location of the call, shown in a failure.
  ///   - line: The source location of the call, shown in a failure.
  ///   - column: The source location of the call, shown in a failure.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    for _ in 0..<20 { await Task.yield() }
    let here = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let tags = runtime.untrackAll()
    guard !tags.isEmpty else {
      if strict { fail("There were no in-flight effects to skip.", at: here) }
      return
    }
    let dump = Self.dumpOneOrAll(tags.compactMap { effectOrigins[$0]?.action })
    report(
      """
      \(tags.count) in-flight effect\(tags.count == 1 ? " was" : "s were") cancelled, \
      originating from:

      \(dump)
      """, exhaustivity: exhaustivity == .on ? .off(showSkippedAssertions: true) : exhaustivity,
      at: here)
    forgetFinishedEffects()
  }

  /// Skips the received actions, reporting them as skipped (see `skipReceivedActions`).
  func skipReceived(strict: Bool, at here: SourceLocation) {
    guard let last = received.last else {
      if strict { fail("There were no received actions to skip.", at: here) }
      return
    }
    let dump = Self.dumpOneOrAll(received.map { $0.action })
    report(
      """
      \(received.count) received action\(received.count == 1 ? " was" : "s were") skipped.

      \(dump)
      """, exhaustivity: exhaustivity == .on ? .off(showSkippedAssertions: true) : exhaustivity,
      at: here)
    state = last.state
    received.removeAll()
  }

  /// Reports received actions nobody asserted and effects still running (as exhaustivity asks),
  /// then forgets the actions and cancels the effects.
  ///
  /// An effect still running is reported at the `send` whose action started it (or started the
  /// effect that sent the action that started it), once per action.
  func reportUnfinishedWork() {
    reportUnreceivedActions(at: location)
    for tag in runtime.runningTags {
      report(Self.effectStillRunning, at: effectOrigins[tag]?.location ?? location)
    }
    received.removeAll()
    runtime.cancelAll()
  }

  /// One action as CustomDump writes it, or the list of several, as the Composable
  /// Architecture's skip messages show them.
  static func dumpOneOrAll(_ actions: [Action]) -> String {
    actions.count == 1 ? String(customDumping: actions[0]) : String(customDumping: actions)
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

  /// Reports actions effects sent that the test did not receive, as exhaustivity asks.
  func reportUnreceivedActions(at here: SourceLocation) {
    guard !received.isEmpty else { return }
    let actions = received
      .map { "    " + debugCaseOutput($0.action, abbreviated: true) }
      .joined(separator: "\n")
    report(
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
  func waitingAdvice(duration: Duration) -> String {
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
}
