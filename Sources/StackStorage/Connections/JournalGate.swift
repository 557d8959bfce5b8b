import Foundation

/// Lets a journal close while calls may be using its database: counts the calls in progress,
/// makes ``close()`` wait until they are done, and refuses calls that start after it.
///
/// GRDB stops the process when a closed database is used, so every use of a journal's database
/// passes through here first.
final class JournalGate: @unchecked Sendable {
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var users = 0
  private var isClosed = false

  /// Whether ``close()`` was called.
  var closed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return isClosed
  }

  /// Counts a call in; `false`, counting nothing, once the journal is closed.
  func enter() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !isClosed else { return false }
    users += 1
    return true
  }

  /// Counts a call out.
  func leave() {
    condition.lock()
    users -= 1
    if users == 0 { condition.broadcast() }
    condition.unlock()
  }

  /// Refuses new calls and waits until those in progress are done; `false` when it was closed
  /// already.
  func close() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !isClosed else { return false }
    isClosed = true
    while users > 0 {
      condition.wait()
    }
    return true
  }
}
