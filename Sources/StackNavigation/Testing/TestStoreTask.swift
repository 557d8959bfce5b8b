/// The asynchronous work started by one ``TestStore`` `send`.
public struct TestStoreTask: Hashable, Sendable {
  let tasks: [Task<Void, Never>]
  /// The store's timeout when the work started: how long `finish()` waits by default.
  let timeout: Duration

  /// Waits until the work is done; fails, and cancels it, when it is still running after
  /// `timeout` (the store's ``TestStore/timeout`` by default).
  public func finish(
    timeout duration: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let duration = duration ?? timeout
    let tasks = self.tasks
    let finished = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        // Cancelled when the time is up, which cancels the work too, as in the Composable
        // Architecture.
        for task in tasks { await task.cancellableValue }
        return true
      }
      group.addTask {
        try? await Task.sleep(for: duration)
        return false
      }
      let first = await group.next() ?? true
      group.cancelAll()
      return first
    }
    guard !finished else { return }
    let timeoutAdvice =
      duration != timeout
      ? #"try increasing the duration of this assertion's "timeout""#
      : #"configure this assertion with an explicit "timeout""#
    reportFailure(
      """
      Expected task to finish, but it is still in-flight\
      \(duration > .zero ? " after \(duration)" : "").

      If this task delivers its action using a clock/scheduler (via "sleep(for:)", \
      "timer(interval:)", etc.), make sure that you wait enough time for it to \
      perform its work. If you are using a test clock/scheduler, advance the scheduler so that \
      the effects may complete, or consider using an immediate clock/scheduler to immediately \
      perform the effect instead.

      If you are not yet using a clock/scheduler, or cannot use a clock/scheduler, \
      \(timeoutAdvice).
      """,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Cancels the work and waits until it has stopped, so the store no longer counts it as
  /// running when the test ends.
  public func cancel() async {
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
  }

  /// Whether the work was cancelled (or there was none).
  public var isCancelled: Bool {
    tasks.allSatisfy { $0.isCancelled }
  }
}
