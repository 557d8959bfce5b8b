import Foundation
import StackJournalCore

/// The shapes of each session's stacks at its head, as this journal's last append to the
/// session left them, so the next append checks its delta (``StackChange/fit(_:)``) without
/// reading the session's stack rows again.
///
/// A copy is used only when nothing but this journal's appends wrote to the file since it was
/// kept, and the head the append finds in its transaction is the head the copy was kept for:
///
/// * SQLite's `PRAGMA data_version` of the writer connection is the same: no other connection
///   (another process, another journal on the file) committed meanwhile;
/// * no other write of this journal ran meanwhile: every write but an append forgets every copy
///   (``SQLiteJournal/write(_:_:)``), so a session deleted, pruned or compacted is read from its
///   rows; making or importing a session forgets that session's copy;
/// * the session's head has the same sequence and `latest_at`;
/// * the append that made the head committed: a copy is kept only after its commit.
///
/// Otherwise the append reads the rows. At most ``limit`` sessions are kept.
///
/// The table is changed in place under a lock: `LockIsolated.withValue` changes a copy of its
/// value, and copying every session's shapes twice per append grew with the sessions kept.
final class HeadShapes: @unchecked Sendable {
  struct Head: Sendable {
    var sequence: Int64
    var latestAt: String
    /// The writer connection's `PRAGMA data_version` in the append's transaction.
    var dataVersion: Int64
    var shapes: [String: StackShape]
  }

  static let limit = 4_096
  private let lock = NSLock()
  // Read and written under `lock` only.
  private var heads: [String: Head] = [:]

  private func withHeads<T>(_ body: (inout [String: Head]) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&heads)
  }

  /// Takes the shapes kept for the session's head at `sequence`, written at `latestAt`, when
  /// the file's data version is still `dataVersion`; the journal keeps them again once the
  /// append that changes them commits (``keep(_:of:)``). Taken, not copied: the append changes
  /// them in place, whatever the stacks' depth.
  func take(
    of session: String, at sequence: Int64, latestAt: String?, dataVersion: Int64
  ) -> [String: StackShape]? {
    withHeads { heads in
      guard let head = heads[session], head.sequence == sequence, head.latestAt == latestAt,
        head.dataVersion == dataVersion
      else { return nil }
      return heads.removeValue(forKey: session)?.shapes
    }
  }

  /// Keeps the shapes of a head whose append committed.
  func keep(_ head: Head, of session: String) {
    withHeads { heads in
      if heads[session] == nil, heads.count >= Self.limit {
        heads.remove(at: heads.startIndex)
      }
      heads[session] = head
    }
  }

  /// Forgets a session this journal made (again).
  func forget(_ session: String) {
    withHeads { _ = $0.removeValue(forKey: session) }
  }

  /// Forgets every session: this journal wrote something other than an append.
  func forgetAll() {
    withHeads { $0.removeAll() }
  }
}
