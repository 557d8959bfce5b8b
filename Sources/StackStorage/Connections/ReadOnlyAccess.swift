import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a reader opens a journal so that it changes no file and creates none, whatever state
/// the files beside it are in.
///
/// * No `-wal` nor `-shm`: no writer has the file open and nothing waits in a log; it is opened
///   `immutable`.
/// * A `-shm` that a live connection holds (SQLite keeps a lock on it while connected): opened
///   plainly read-only, taking part in the locks that keep a checkpoint from changing pages
///   under the read.
/// * A `-shm` that no process holds (its writer died or closed without removing it): a log
///   without a frame holds nothing the file lacks, so the file is opened `immutable`; otherwise
///   it is opened with `readonly_shm`, so SQLite rebuilds the log's index in the reader's memory
///   instead of rewriting the `-shm`.
/// * A `-wal` without a `-shm`: a log without a frame holds nothing, so the file is opened
///   `immutable`;
///   a log with frames is read from a private copy of the two files in a temporary directory,
///   removed when the journal is released (or, after a kill, by the next such copy), since SQLite
///   cannot read a log without creating its `-shm`.
enum ReadOnlyAccess {
  /// Where and how to open: the SQLite path or URI, and the copy to keep alive, if any.
  struct Plan {
    var location: String
    var privateCopy: PrivateCopy?
    /// How the connection reads without taking part in the log's locks, if it does.
    var unlocked: Unlocked?

    static func immutable(_ path: String) -> Plan {
      Plan(location: ReadOnlyConnection.uri(path: path, immutable: true), unlocked: .immutable)
    }
  }

  /// How a reader reads without taking part in the log's locks.
  enum Unlocked {
    /// `immutable`: the file alone, taking no lock.
    case immutable
    /// `readonly_shm`: the file and a log whose index the reader rebuilt in its own memory.
    case privateLogIndex
  }

  /// The plan for reading `path`; `participating` for a reader that waits for new entries.
  static func plan(for path: String, participating: Bool) throws -> Plan {
    let uris = ReadOnlyConnection.urisAlwaysEnabled
    if participating || !uris { return Plan(location: path) }
    let wal = DatabaseFile.status(path + "-wal")
    let shm = DatabaseFile.status(path + "-shm")
    switch (wal, shm) {
    case (nil, nil):
      return .immutable(path)
    case (let wal, let shm?):
      if isHeldByLiveConnection(shm) { return Plan(location: path) }
      // No process has the file open. A log without a single frame holds nothing the file does
      // not (and SQLite refuses to read such a log without rebuilding its index).
      if !holdsAFrame(wal) { return .immutable(path) }
      return Plan(
        location: ReadOnlyConnection.uri(path: path, parameters: "&readonly_shm=1"),
        unlocked: .privateLogIndex)
    case (let wal?, nil):
      if !holdsAFrame(wal) { return .immutable(path) }
      let copy = try PrivateCopy(of: path)
      return Plan(location: copy.path, privateCopy: copy)
    }
  }

  /// Whether a log is long enough to hold a frame: its 32-byte header, a frame's 24-byte header
  /// and a page of at least 512 bytes.
  static func holdsAFrame(_ wal: stat?) -> Bool {
    guard let wal else { return false }
    return wal.st_size >= 32 + 24 + 512
  }

  /// Whether a process holds a lock on the `-shm` file: SQLite keeps one on it for as long as a
  /// connection has the database open. Read from `/proc/locks`, so the file is not opened (this
  /// process closing a descriptor of it would drop the locks its own connections hold). When
  /// that list cannot be read, the file counts as held.
  static func isHeldByLiveConnection(_ shm: stat) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: "/proc/locks") else { return true }
    defer { try? handle.close() }
    // Bounded: a machine with more locks than this is treated as having a live writer.
    guard let data = try? handle.read(upToCount: 4 << 20), data.count < 4 << 20 else {
      return true
    }
    let device = UInt64(shm.st_dev)
    let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
    let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
    let inode = UInt64(shm.st_ino)
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      // `1: POSIX  ADVISORY  READ 1234 08:01:5678 128 128` (`->` marks a waiting lock).
      for field in line.split(separator: " ") where field.contains(":") {
        let parts = field.split(separator: ":")
        guard parts.count == 3, let fileMajor = UInt64(parts[0], radix: 16),
          let fileMinor = UInt64(parts[1], radix: 16), let fileInode = UInt64(parts[2])
        else { continue }
        if fileInode == inode && fileMajor == major && fileMinor == minor { return true }
      }
    }
    return false
  }
}

/// A copy of a journal and its `-wal` in a fresh temporary directory, removed on release.
final class PrivateCopy: @unchecked Sendable {
  let directory: URL
  let path: String

  private static let prefix = "stackjournal-read-"

  /// A copy of the journal and of its `-wal` when it has one, taken while neither changed: each
  /// is compared (inode, size, modification time) before and after the copy, which is made
  /// again, a few times, while a writer changes them. Throws when no copy was taken unchanged.
  static func unchanging(of original: String) throws -> PrivateCopy {
    for _ in 0..<5 {
      let before = UnlockedReads.Identities(of: original, withLog: true)
      let copy = try PrivateCopy(of: original, withLog: before.log != nil)
      let after = UnlockedReads.Identities(of: original, withLog: true)
      if before == after, before.file != nil { return copy }
    }
    throw StorageError(
      code: .busy,
      message: "The journal \(original) kept changing while it was copied to be read.",
      path: original)
  }

  convenience init(of original: String) throws {
    try self.init(of: original, withLog: true)
  }

  init(of original: String, withLog: Bool) throws {
    Self.removeCopiesOfDeadProcesses()
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent(
        "\(Self.prefix)\(getpid())-\(UUID().uuidString)", isDirectory: true)
    path = directory.appendingPathComponent("journal.sqlite").path
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o700])
      // The log first: frames a writer adds meanwhile are not in the copied file either.
      if withLog { try copy(original + "-wal", to: path + "-wal") }
      try copy(original, to: path)
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw StorageError(
        code: .io,
        message: "The journal \(original) has a write-ahead log left without its index (-shm); "
          + "reading it needs a private copy, which could not be made in "
          + "\(FileManager.default.temporaryDirectory.path). Free space there or set TMPDIR.",
        path: original, underlying: error)
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  /// Removes the copies a killed reader left in the temporary directory: those named with the
  /// ID of a process that no longer runs.
  private static func removeCopiesOfDeadProcesses() {
    let temporary = FileManager.default.temporaryDirectory
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: temporary.path)
    else { return }
    for entry in entries where entry.hasPrefix(prefix) {
      let rest = entry.dropFirst(prefix.count)
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, digits.count <= 10, let pid = pid_t(digits),
        rest.dropFirst(digits.count).first == "-",
        UUID(uuidString: String(rest.dropFirst(digits.count + 1))) != nil,
        !JournalFileCreation.isRunning(pid)
      else { continue }
      try? FileManager.default.removeItem(at: temporary.appendingPathComponent(entry))
    }
  }

  private func copy(_ source: String, to destination: String) throws {
    try JournalFileCreation.createEmptyFile(destination)
    guard let input = FileHandle(forReadingAtPath: source),
      let output = FileHandle(forWritingAtPath: destination)
    else { throw StorageError(code: .io, message: "Cannot copy \(source).") }
    defer {
      try? input.close()
      try? output.close()
    }
    while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
      try output.write(contentsOf: chunk)
    }
  }
}
