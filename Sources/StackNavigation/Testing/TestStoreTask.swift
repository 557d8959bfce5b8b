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
