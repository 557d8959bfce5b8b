import Foundation

/// Whether `condition` holds within `timeout`, checked every two milliseconds: for what effects
/// do in their own tasks (a timer's tick, a recognizer's answer, a child's dismissal). It returns
/// as soon as the condition holds; the default timeout is long because the whole suite runs its
/// tests in parallel on few cores, where an effect's task may wait seconds for a thread.
public func eventually(
  within timeout: Duration = .seconds(20), _ condition: () async -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return await condition()
}
