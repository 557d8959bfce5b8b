import Foundation

// The end of a test: waiting for effects, skipping what the test does not assert, and the
// failures for work left unfinished.

extension TestStore {
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
  func reportUnreceivedActions(at here: SourceLocation) {
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
