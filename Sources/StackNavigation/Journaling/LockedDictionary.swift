import Foundation

/// A dictionary behind a lock: the caches that naming an action reads at each of its levels
/// (what a type is, an enum's cases, whether a type reflects plainly).
///
/// Not `LockIsolated`, which takes a recursive lock and runs a closure under an exclusivity
/// check for each access: about 600 instructions a lookup there, several lookups an action.
final class LockedDictionary<Key: Hashable, Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Key: Value] = [:]

  init() {}

  subscript(key: Key) -> Value? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return values[key]
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      values[key] = newValue
    }
  }

  /// Runs `body` with the dictionary, under the lock.
  func withLock<Result>(_ body: (inout [Key: Value]) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&values)
  }
}
