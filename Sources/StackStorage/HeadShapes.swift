import Foundation
import StackJournalCore

/// The head of each session as this journal's last append to the session left it — its number,
/// sequence and `latest_at`, and the shapes of its stacks — so the next append neither reads the
/// head nor the session's stack rows again to check its delta (``StackChange/fit(_:)``).
///
/// A copy is used only when nothing but this journal's appends wrote to the file since it was
/// kept:
///
/// * SQLite's `PRAGMA data_version` of the writer connection is the same: no other connection
///   (another process, another journal on the file) committed meanwhile;
/// * no other write of this journal ran meanwhile: every write but an append forgets every copy
///   (``SQLiteJournal/write(_:_:)``), so a session deleted, pruned or compacted is read from its
///   rows; making or importing a session forgets that session's copy. The write forgets in its
///   transaction, and moves the table's ``generation`` on: an append that began before it keeps
///   nothing (``keep(_:of:)``), even when it gets to keep after the write committed;
/// * the append that made the head committed: a copy is kept only after its commit.
///
/// Otherwise the append reads the head and the rows. At most ``limit`` sessions are kept.
///
/// The table is changed in place under a lock: `LockIsolated.withValue` changes a copy of its
/// value, and copying every session's shapes twice per append grew with the sessions kept.
final class HeadShapes: @unchecked Sendable {
  struct Head: Sendable {
    /// The session's `sessions.number`, which its journal keys start with.
    var number: Int64
    var sequence: Int64
    var latestAt: String
    /// The writer connection's `PRAGMA data_version` in the append's transaction.
    var dataVersion: Int64
    /// The table's ``HeadShapes/generation`` when the append's transaction began.
    var generation: UInt64
    var shapes: [String: StackShape]
  }

  static let limit = 4_096
  private let lock = NSLock()
  // Read and written under `lock` only.
  private var heads: [String: Head] = [:]
  private var changes: UInt64 = 0

  private func withHeads<T>(_ body: (inout [String: Head]) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&heads)
  }

  /// How many times the table was forgotten (wholly or for a session): an append reads it in
  /// its transaction, and keeps its head only if it has not moved since.
  var generation: UInt64 {
    withHeads { _ in changes }
  }

  /// Takes the head kept for the session when the file's data version is still `dataVersion`;
  /// the journal keeps one again once the append that changes it commits (``keep(_:of:)``).
  /// Taken, not copied: the append changes the shapes in place, whatever the stacks' depth.
  func take(of session: String, dataVersion: Int64) -> Head? {
    withHeads { heads in
      guard let head = heads[session], head.dataVersion == dataVersion else { return nil }
      return heads.removeValue(forKey: session)
    }
  }

  /// Keeps a head whose append committed, unless another write of the journal began since
  /// the append's transaction did.
  func keep(_ head: Head, of session: String) {
    withHeads { heads in
      guard head.generation == changes else { return }
      if heads[session] == nil, heads.count >= Self.limit {
        heads.remove(at: heads.startIndex)
      }
      heads[session] = head
    }
  }

  /// Forgets a session this journal made (again).
  func forget(_ session: String) {
    withHeads {
      changes &+= 1
      _ = $0.removeValue(forKey: session)
    }
  }

  /// Forgets every session: this journal wrote something other than an append.
  func forgetAll() {
    withHeads {
      changes &+= 1
      $0.removeAll()
    }
  }
}
