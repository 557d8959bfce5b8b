import ConcurrencyExtras
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The guard of a reader that takes no part in the log's locks: one that opened its file
/// `immutable` (no writer had it open then), or with `readonly_shm` (a log no live connection
/// held, whose index the reader rebuilt in its own memory). A writer that opens the file
/// afterwards can fold its log into the file while a read runs, or between two reads of cached
/// pages, and (for a `readonly_shm` reader) start its log again over frames the reader's index
/// still points to. Each read notes the identity (inode, size, modification time) of the file,
/// and of its log for a `readonly_shm` reader, before and after it: a read during which they
/// changed is read again, and the connection's cached pages are dropped whenever they changed
/// since the last read.
///
/// Once the files changed — during a read, between two reads, or so that SQLite finds a page
/// malformed — the reads go through a new connection opened for the files as they are then
/// (``ReadOnlyAccess``): an `immutable` connection keeps the size and pages it saw, so after a
/// writer has grown the file it cannot read it again. When that new connection takes part in
/// the log's locks (a writer holds the file), its reads need no guard.
///
/// A read whose files changed under it is torn whatever it returned or threw: a session it
/// listed may be missing from a page it read next ("There is no session …"). It is read again.
/// A long read (`verify` of a whole file) beside writers that come and go may be torn every
/// time; from its second attempt on it reads a private copy of the files, taken while nothing
/// changed them (``PrivateCopy/unchanging(of:)``), which nothing can change under it.
final class UnlockedReads: Sendable {
  /// The file's identity as `stat` gives it.
  struct Identity: Equatable {
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    init?(_ path: String) {
      guard let status = DatabaseFile.status(path) else { return nil }
      inode = UInt64(status.st_ino)
      size = Int64(status.st_size)
      seconds = Int(status.st_mtim.tv_sec)
      nanoseconds = Int(status.st_mtim.tv_nsec)
    }
  }

  /// The identities of the file and, when the reader reads its log, of the log.
  struct Identities: Equatable {
    var file: Identity?
    var log: Identity?

    /// The identities of the journal at `path` and, `withLog`, of its `-wal`.
    init(of path: String, withLog: Bool) {
      file = Identity(path)
      log = withLog ? Identity(path + "-wal") : nil
    }
  }

  /// A connection opened again after the files changed, with the private copy it reads, if any.
  private struct Reopened: @unchecked Sendable {
    var reader: any DatabaseReader
    var copy: PrivateCopy?
    /// How it reads without the log's locks; `nil` when it takes part in them, or reads a
    /// private copy: nothing changes under its reads then.
    var unlocked: ReadOnlyAccess.Unlocked?
  }

  let path: String
  /// How the first connection reads without the log's locks.
  let unlocked: ReadOnlyAccess.Unlocked
  private let configuration: Configuration
  private let lastSeen = LockIsolated<Identities?>(nil)
  private let reopened = LockIsolated<Reopened?>(nil)

  init(path: String, unlocked: ReadOnlyAccess.Unlocked, configuration: Configuration) {
    self.path = path
    self.unlocked = unlocked
    self.configuration = configuration
  }

  /// The identities the current connection's reads depend on: a `readonly_shm` reader's log
  /// too.
  private func identities() -> Identities {
    let current = reopened.value.map(\.unlocked) ?? unlocked
    return Identities(of: path, withLog: current == .privateLogIndex)
  }

  /// Runs `read` (a read transaction) on `database`, or on the connection that replaced it,
  /// again while the files change under it, within ``SQLiteJournal/readerAttempts``; drops the
  /// connection's cached pages when the files changed since the last read.
  func read<T>(
    _ database: any DatabaseWriter, _ read: (any DatabaseReader) throws -> T
  ) throws -> T {
    var attempt = 1
    while true {
      let before = identities()
      if let seen = lastSeen.value, seen != before { reopen(copying: false) }
      let current = reopened.value
      if let current, current.unlocked == nil { return try read(current.reader) }
      let reader = current?.reader ?? database
      if before != lastSeen.value {
        (reader as? DatabaseQueue)?.releaseMemory()
      }
      var failure: (any Error)?
      do {
        let result = try read(reader)
        let after = identities()
        lastSeen.setValue(after)
        if after == before { return result }
        reopen(copying: attempt > 1)
      } catch let error as StorageError where error.code == .corrupt {
        // Pages a writer was folding in at that moment, or a file grown since the connection
        // looked at it: read again below, through a connection opened for the files as they are.
        lastSeen.setValue(nil)
        failure = error
        reopen(copying: attempt > 1)
      } catch {
        // Any other failure stands, unless the files changed during the read: then it may come
        // from pages of two moments, and the read is made again.
        let after = identities()
        lastSeen.setValue(after)
        if after == before { throw error }
        failure = error
        reopen(copying: attempt > 1)
      }
      guard attempt < SQLiteJournal.readerAttempts else {
        if let failure { throw failure }
        throw StorageError(
          code: .busy,
          message: "The journal \(path) kept changing under a read that takes no lock (it was "
            + "opened while no writer had it open). Nothing was changed; run the command again.",
          path: path)
      }
      usleep(SQLiteJournal.readerRetryPause * useconds_t(attempt))
      attempt += 1
    }
  }

  /// Opens a new connection for the files as they are now; keeps the current one when that
  /// fails (the next read then fails as before). With `copying`, a connection that would read
  /// without the log's locks reads a private copy of the files instead, when one can be taken.
  private func reopen(copying: Bool) {
    guard let planned = try? ReadOnlyAccess.plan(for: path, participating: false) else { return }
    var plan = planned
    if copying, plan.unlocked != nil, let copy = try? PrivateCopy.unchanging(of: path) {
      plan = ReadOnlyAccess.Plan(location: copy.path, privateCopy: copy)
    }
    let reopening = plan
    guard let queue = try? DatabaseQueue(path: plan.location, configuration: configuration)
    else { return }
    reopened.setValue(
      Reopened(reader: queue, copy: reopening.privateCopy, unlocked: reopening.unlocked))
  }
}
