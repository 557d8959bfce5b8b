import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks an existing file before any read-write connection touches it.
///
/// First the 16-byte SQLite header and the declared size, then a read-only connection reads the
/// schema state. Nothing here writes to the file, so a refused file stays byte-for-byte the same.
enum DatabaseFile {
  private static let magic = Array("SQLite format 3\u{0}".utf8)

  /// Whether something exists at `path`, a dangling symbolic link included.
  static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// The status of the file at `path`, following symbolic links; `nil` when there is none.
  static func status(_ path: String) -> stat? {
    var status = stat()
    return stat(path, &status) == 0 ? status : nil
  }

  /// Throws when a path cannot name a journal file: it ends with a slash, or names something
  /// other than a regular file (a directory, a FIFO, a device, a dangling symbolic link).
  static func checkPath(_ path: String) throws {
    guard !path.isEmpty else {
      throw StorageError(
        code: .fileNotFound, message: "The journal path is empty; give the path of a file.")
    }
    guard !path.hasSuffix("/") else {
      throw StorageError(
        code: .io,
        message: "The path \(path) ends with a slash, so it names a directory, not a journal "
          + "file; give the file's path without the trailing slash.",
        path: path)
    }
    guard exists(path) else { return }
    guard let status = status(path) else {
      throw StorageError(
        code: .fileNotFound,
        message: "\(path) is a symbolic link to a file that does not exist; fix or remove the "
          + "link, or give another path.",
        path: path)
    }
    let kind = status.st_mode & S_IFMT
    guard kind == S_IFREG else {
      throw StorageError(
        code: .notADatabase,
        message: "\(path) is \(describe(kind)), not a journal file. It was left unchanged; give "
          + "the path of a .sqlite file.",
        path: path)
    }
  }

  private static func describe(_ kind: mode_t) -> String {
    switch kind {
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }

  /// Throws when the file at `path` is empty, not an SQLite database, or shorter than its header
  /// declares.
  static func checkHeader(_ path: String) throws {
    try checkPath(path)
    let size = try fileSize(path)
    guard size > 0 else {
      throw StorageError(
        code: .emptyFile,
        message: "The file \(path) is empty: empty file, not a StackJournal database. It was "
          + "left unchanged; delete it to create a new journal there, or give another path.",
        path: path
      )
    }
    let header = try readPrefix(path, count: 100)
    guard header.count >= magic.count, Array(header.prefix(magic.count)) == magic else {
      throw StorageError(
        code: .notADatabase,
        message: "The file \(path) is not an SQLite database (it does not start with the SQLite "
          + "header). It was left unchanged; open a StackJournal file, or give a new path.",
        path: path
      )
    }
    guard header.count == 100 else {
      throw truncated(path, "its 100-byte header is cut short at \(header.count) bytes")
    }
    func integer(_ offset: Int, _ width: Int) -> Int {
      header[offset..<offset + width].reduce(0) { $0 << 8 | Int($1) }
    }
    let rawPageSize = integer(16, 2)
    let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
    guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
      throw StorageError(
        code: .corrupt,
        message: "The file \(path) has a damaged SQLite header (page size \(rawPageSize)). It "
          + "was left unchanged; restore it from a backup.",
        path: path
      )
    }
    guard size >= pageSize else {
      throw truncated(path, "its first page of \(pageSize) bytes is cut short at \(size) bytes")
    }
    // A writer that checkpoints rewrites page 1 (with the new page count) before it extends the
    // file, and removes its log when it closes, so reads of the three without a lock can meet a
    // passing state. A file that is truly cut short stays so: only a shortfall seen on every try,
    // with no log beside the file before and after, is reported.
    var shortfall: String?
    for attempt in 0..<5 {
      if attempt > 0 { usleep(20_000) }
      shortfall = try declaredSizeShortfall(path)
      if shortfall == nil { return }
    }
    if let shortfall { throw truncated(path, shortfall) }
  }

  /// Describes how the file at `path` is shorter than its header declares, or `nil` when it is
  /// not, or when a log beside it makes the declared size not yet the file's own.
  private static func declaredSizeShortfall(_ path: String) throws -> String? {
    func logSize() -> Int { (try? fileSize(path + "-wal")) ?? 0 }
    guard logSize() == 0 else { return nil }
    let header = try readPrefix(path, count: 100)
    guard header.count == 100 else { return nil }
    func integer(_ offset: Int, _ width: Int) -> Int {
      header[offset..<offset + width].reduce(0) { $0 << 8 | Int($1) }
    }
    let rawPageSize = integer(16, 2)
    let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
    let changeCounter = integer(24, 4)
    let pageCount = integer(28, 4)
    let versionValidFor = integer(92, 4)
    let size = try fileSize(path)
    guard logSize() == 0, pageCount > 0, versionValidFor == changeCounter,
      pageCount * pageSize > size
    else { return nil }
    return "its header declares \(pageCount) pages of \(pageSize) bytes (\(pageCount * pageSize) "
      + "bytes) but the file holds \(size) bytes"
  }

  /// Reads the schema state through a read-only connection: at `location` (an SQLite URI or
  /// path that ``ReadOnlyAccess`` chose), or, before a writer opens the file, immutable when no
  /// log lies beside it.
  static func readSchemaState(_ path: String, location: String? = nil) throws -> SchemaState {
    do {
      let connection =
        try location.map { try ReadOnlyConnection(path: path, uri: $0) }
        ?? ReadOnlyConnection(path: path, immutable: ReadOnlyConnection.hasNoLogFiles(path))
      return try SchemaState.read(connection)
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: "checking the file")
    }
  }

  /// Throws when this process may not write the journal at `path` or, when its `-wal` and
  /// `-shm` do not exist yet, create them in its directory: SQLite would otherwise open the file
  /// read-only and leave those files behind before the first write fails.
  static func checkWritable(_ path: String) throws {
    guard access(path, W_OK) == 0 else {
      throw StorageError(
        code: .readOnly,
        message: "The journal \(path) is not writable by this user "
          + "(\(String(cString: strerror(errno)))). It was left unchanged; check its permissions, "
          + "or use a read-only command.",
        path: path)
    }
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let needsFiles = !exists(path + "-wal") || !exists(path + "-shm")
    guard !needsFiles || access(directory, W_OK) == 0 else {
      throw StorageError(
        code: .readOnly,
        message: "The directory \(directory) is not writable by this user, and a journal that "
          + "is written needs its -wal and -shm files there. \(path) was left unchanged; check "
          + "the directory's permissions, or use a read-only command.",
        path: path)
    }
  }

  /// Throws when a reader that takes part in the write-ahead log (one that waits for new
  /// entries) could not: the log's index, the `-shm` file, is not beside the journal and its
  /// directory is not writable by this user, so SQLite could not create it and would fail with
  /// "attempt to write a readonly database".
  static func checkLogIndexReachable(_ path: String) throws {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard exists(path + "-shm") || access(directory, W_OK) == 0 else {
      throw StorageError(
        code: .readOnly,
        message: "Waiting for new entries of \(path) means joining its write-ahead log, whose "
          + "index (\(path)-shm) no writer holds now and this user cannot create: the directory "
          + "\(directory) is not writable by this user. Nothing was changed; read the journal "
          + "without waiting (`log` without --follow), or run as a user who may write in "
          + "\(directory).",
        path: path)
    }
  }

  /// The size of the file at `path`, following symbolic links.
  static func fileSize(_ path: String) throws -> Int {
    guard let status = status(path) else {
      throw StorageError(
        code: .io,
        message: "Cannot read the size of \(path): \(String(cString: strerror(errno))).",
        path: path)
    }
    return Int(status.st_size)
  }

  private static func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw StorageError(
        code: .io, message: "Cannot open \(path) for reading; check its permissions.", path: path)
    }
    defer { try? handle.close() }
    do {
      return Array(try handle.read(upToCount: count) ?? Data())
    } catch {
      throw StorageError(
        code: .io, message: "Cannot read \(path).", path: path, underlying: error)
    }
  }

  private static func truncated(_ path: String, _ detail: String) -> StorageError {
    StorageError(
      code: .truncated,
      message: "The file \(path) is truncated: \(detail). It was left unchanged; restore it from "
        + "a backup.",
      path: path
    )
  }
}
