import ConcurrencyExtras
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The guard of a reader that opened its file `immutable` (no writer had it open then): such a
/// connection takes no lock, so a writer that opens the file afterwards can fold its log into
/// the file while a read runs, or between two reads of cached pages. Each read notes the file's
/// identity (inode, size, modification time) before and after it: a read during which the file
/// changed is read again, and the connection's cached pages are dropped whenever the file
/// changed since the last read.
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

  let path: String
  private let lastSeen = LockIsolated<Identity?>(nil)

  init(path: String) {
    self.path = path
  }

  /// Runs `read` (a read transaction), again while the file changes under it, within
  /// ``SQLiteJournal/readerAttempts``; drops `database`'s cached pages when the file changed
  /// since the last read.
  func read<T>(_ database: any DatabaseWriter, _ read: () throws -> T) throws -> T {
    var attempt = 1
    while true {
      let before = Identity(path)
      if before != lastSeen.value {
        (database as? DatabaseQueue)?.releaseMemory()
      }
      var failure: (any Error)?
      do {
        let result = try read()
        let after = Identity(path)
        lastSeen.setValue(after)
        if after == before { return result }
      } catch let error as StorageError where error.code == .corrupt {
        // Pages a writer was folding in at that moment; read again below.
        lastSeen.setValue(nil)
        failure = error
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
}
