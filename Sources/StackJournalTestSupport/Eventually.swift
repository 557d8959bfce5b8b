import Foundation

/// Whether `condition` holds within `timeout`, checked every two milliseconds: for what effects
/// do in their own tasks (a timer's tick, a recognizer's answer, a child's dismissal).
public func eventually(
  within timeout: Duration = .seconds(2), _ condition: () async -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return await condition()
}
