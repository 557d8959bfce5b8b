import Foundation
import StackJournalCore

/// The head of each session as this journal's last append to the session left it — its number,
/// sequence and `latest_at`, and the shapes of its stacks — so the next append neither reads the
/// head nor the session's stack rows again to check its delta (``StackChange/fit(_:)``).
///
/// A copy is used only when nothing but this journal's appends wrote to the file since it was
/// kept, and it is the session's latest:
///
/// * SQLite's `PRAGMA data_version` of the writer connection is the same: no other connection
///   (another process, another journal on the file) committed meanwhile;
/// * no other write of this journal ran meanwhile: every write but an append forgets every copy
///   (``SQLiteJournal/write(_:_:)``), so a session deleted, pruned or compacted is read from its
///   rows; making or importing a session forgets that session's copy;
/// * the append that made the head committed, and no other append to the session, and no other
///   write, began after its own: each append takes a ticket in its transaction
///   (``begin(_:dataVersion:)``), where appends and writes take their turns, and a head is kept
///   only with the session's last ticket (``keep(_:of:)``). Appends keep their heads after their
///   commits, in whatever order their tasks get there: without the ticket, an append that kept
///   late would put back an older head over a newer one.
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
    /// The ticket the append took in its transaction (``HeadShapes/begin(_:dataVersion:)``).
    var ticket: UInt64
    var shapes: [String: StackShape]
  }

  /// A session's last ticket, and its head once the append holding the ticket kept it.
  private struct Entry {
    var ticket: UInt64
    var head: Head? = nil

    /// Holds `ticket` and no head from now on; returns the head it held.
    mutating func restart(ticket: UInt64) -> Head? {
      defer { self = Entry(ticket: ticket) }
      return head
    }
  }

  static let limit = 4_096
  private let lock = NSLock()
  // Read and written under `lock` only.
  // Keyed by ``SessionID``, which compares bytes: a `String` key would take `café` written
  // with a combining accent for `café` written with `é`, and append with the other's shapes.
  private var entries: [SessionID: Entry] = [:]
  private var tickets: UInt64 = 0

  private func withEntries<T>(_ body: (inout [SessionID: Entry]) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&entries)
  }

  /// Begins an append to `session`, in its transaction: returns the append's ticket, and takes
  /// the head kept for the session when the file's data version is still `dataVersion`. Taken,
  /// not copied: the append changes the shapes in place, whatever the stacks' depth; the journal
  /// keeps them again once the append commits (``keep(_:of:)``).
  func begin(_ session: SessionID, dataVersion: Int64) -> (ticket: UInt64, kept: Head?) {
    withEntries { entries in
      tickets &+= 1
      let ticket = tickets
      if entries.count >= Self.limit, entries[session] == nil {
        entries.remove(at: entries.startIndex)
      }
      // Changed in place: one lookup of the session.
      let kept = entries[session, default: Entry(ticket: ticket)].restart(ticket: ticket)
      return (ticket, kept?.dataVersion == dataVersion ? kept : nil)
    }
  }

  /// Keeps a head whose append committed, if its ticket is still the session's last: no other
  /// append to the session, and no other write of the journal, began since it did.
  func keep(_ head: Head, of session: SessionID) {
    withEntries { entries in
      guard let index = entries.index(forKey: session), entries.values[index].ticket == head.ticket
      else { return }
      entries.values[index].head = head
    }
  }

  /// Forgets a session this journal made (again).
  func forget(_ session: SessionID) {
    withEntries { _ = $0.removeValue(forKey: session) }
  }

  /// Forgets every session: this journal wrote something other than an append.
  func forgetAll() {
    withEntries { $0.removeAll() }
  }
}
