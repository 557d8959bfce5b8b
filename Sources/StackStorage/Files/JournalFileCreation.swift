import Foundation
import GRDB
import Logging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Creates journal files atomically, readable by their owner only, and removes what a killed
/// creation left behind.
///
/// A new journal is built under a temporary name in the same directory
/// (`.NAME.creating-PID-UUID`), migrated completely, flushed to the disk, then linked to its
/// path; `link` never replaces a file, so a journal another process put there meanwhile wins and
/// is opened instead. The journal therefore appears complete or not at all.
///
/// Temporary files carry the creating process's ID. A later open of the same path removes those
/// whose process no longer runs, and nothing else: another process's creation in progress, files
/// of other journals and files of other programs are left alone.
enum JournalFileCreation {
  /// The permissions of every file StackJournal creates: read and write for the owner only.
  static let permissions: mode_t = 0o600

  /// The kinds of temporary files StackJournal makes beside a journal.
  enum Purpose: String, CaseIterable {
    /// A new journal being created and migrated.
    case creating
    /// A new journal being filled by an import.
    case `import`
  }

  /// A new temporary name beside `path` for `purpose`, carrying this process's ID.
  static func temporaryPath(for path: String, purpose: Purpose) -> String {
    let url = URL(fileURLWithPath: path)
    return url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).\(purpose.rawValue)-\(getpid())-\(UUID().uuidString)"
    ).path
  }

  /// Creates an empty file at `path` with ``permissions``; fails when something is there.
  /// Errors name `journal`, the file the caller is making (by default `path` itself).
  static func createEmptyFile(_ path: String, for journal: String? = nil) throws {
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, permissions)
    guard descriptor >= 0 else {
      let code = errno
      let target = journal ?? path
      throw StorageError(
        code: code == ENOSPC ? .diskFull : .io,
        message: "Cannot create \(target): \(String(cString: strerror(code))). Check that the "
          + "directory exists and is writable.",
        path: target)
    }
    close(descriptor)
  }

  /// Builds a journal at `path`, which did not exist when the caller looked: under a temporary
  /// name, migrated and flushed, then linked into place. Returns without error when another
  /// process created `path` meanwhile; the caller then opens that file as an existing one.
  static func create(
    path: String,
    configuration: Configuration,
    durability: Durability,
    logger: Logger = SQLiteJournal.discardingLogger
  ) throws {
    let temporary = temporaryPath(for: path, purpose: .creating)
    defer { removeFiles(of: temporary) }
    try createEmptyFile(temporary, for: path)
    do {
      let pool = try DatabasePool(path: temporary, configuration: configuration)
      try SchemaMigrator.migrate(pool, path: path)
      // Closing the last connection checkpoints the log into the file and removes it.
      try pool.close()
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: "creating the journal")
    }
    if let log = DatabaseFile.status(temporary + "-wal"), log.st_size > 0 {
      throw StorageError(
        code: .io,
        message: "The new journal's write-ahead log was not folded into it when it closed, so "
          + "nothing was created at \(path). Try again.",
        path: path)
    }
    try synchronize(temporary)
    guard link(temporary, path) == 0 else {
      let code = errno
      if code == EEXIST { return }
      throw StorageError(
        code: code == ENOSPC ? .diskFull : .io,
        message: "Cannot create \(path): \(String(cString: strerror(code))). Nothing was "
          + "created; check that the directory is writable.",
        path: path)
    }
    removeFiles(of: temporary)
    try synchronize(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    logger.info(
      "created a journal file",
      metadata: ["journal": "\(path)", "schema.version": "\(Migration.latestVersion)"])
  }

  /// Flushes a file or directory to the disk.
  static func synchronize(_ path: String) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw StorageError(
        code: .io,
        message: "Cannot open \(path) to flush it: \(String(cString: strerror(errno))).",
        path: path)
    }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw StorageError(
        code: .io, message: "Cannot flush \(path): \(String(cString: strerror(errno))).",
        path: path)
    }
  }

  /// Removes a database file and the files SQLite keeps beside it.
  static func removeFiles(of path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
      unlink(path + suffix)
    }
  }

  /// Removes the temporary files a killed creation or import of the journal at `path` left:
  /// files named `.NAME.creating-PID-…` or `.NAME.import-PID-…` (and those SQLite keeps beside
  /// them) whose process `PID` no longer runs. Returns the names removed.
  @discardableResult
  static func removeLeftovers(of path: String) -> [String] {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return []
    }
    var removed: [String] = []
    for entry in entries {
      guard let pid = leftoverProcess(entry, of: name), !isRunning(pid) else { continue }
      let full = URL(fileURLWithPath: directory).appendingPathComponent(entry).path
      // Only regular files: a directory or link with such a name is not one of ours.
      var status = stat()
      guard lstat(full, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      if unlink(full) == 0 { removed.append(entry) }
    }
    return removed.sorted()
  }

  /// The process ID in a temporary name made for the journal `name`, or `nil` when `entry` is
  /// not such a name. An import's temporary journal is itself created under a temporary name,
  /// `..NAME.import-PID-UUID.creating-PID-UUID`, which counts too.
  static func leftoverProcess(_ entry: String, of name: String) -> pid_t? {
    for purpose in Purpose.allCases {
      for prefix in [".\(name).\(purpose.rawValue)-", "..\(name).\(purpose.rawValue)-"] {
        guard entry.hasPrefix(prefix) else { continue }
        let rest = entry.dropFirst(prefix.count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 10, rest.dropFirst(digits.count).first == "-",
          let pid = pid_t(digits), pid > 0
        else { return nil }
        let uuid = rest.dropFirst(digits.count + 1).prefix(36)
        guard UUID(uuidString: String(uuid)) != nil else { return nil }
        return pid
      }
    }
    return nil
  }

  /// Whether a process with this ID runs (or may run: one of another user's counts).
  static func isRunning(_ pid: pid_t) -> Bool {
    if pid == getpid() { return true }
    return kill(pid, 0) == 0 || errno != ESRCH
  }
}
