import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `report` writes its page, decided before the page is built, without opening anything
/// but a regular file to read.
enum PageDestination {
  /// Standard output (`-o -`).
  case standardOutput
  /// A FIFO or a character device (`/dev/null`, a terminal): written as a stream, never
  /// replaced.
  case stream(path: String)
  /// A regular file, or a new one: the page is written beside it under a temporary name with
  /// `permissions` and renamed over it, so a reader never sees half a page. `path` is where a
  /// symbolic link leads, so the link stays.
  case file(path: String, permissions: mode_t)

  /// The permissions of a new page: its owner's only, as an export's, since it holds the same
  /// data.
  static let newFilePermissions: mode_t = 0o600

  /// The destination `output` names; refuses a directory, a block device, a socket and an
  /// SQLite database, so a slip of `-o` never overwrites a journal or a disk.
  init(_ output: String) throws {
    if output == "-" {
      self = .standardOutput
      return
    }
    var status = stat()
    guard stat(output, &status) == 0 else {
      let code = errno
      var link = stat()
      if code == ENOENT, lstat(output, &link) == 0 {
        throw CLIFailure(
          message: "\(output) is a symbolic link to a file that does not exist; give the page's "
            + "path, or remove the link.")
      }
      guard code == ENOENT else {
        throw CLIFailure(message: "Cannot use \(output): \(String(cString: strerror(code))).")
      }
      self = .file(path: output, permissions: Self.newFilePermissions)
      return
    }
    if Self.isStream(status) {
      self = .stream(path: output)
      return
    }
    switch status.st_mode & S_IFMT {
    case S_IFDIR:
      throw CLIFailure(message: "\(output) is a directory; give the path of the page to write.")
    case S_IFREG:
      if Self.holdsSQLiteHeader(output) {
        throw CLIFailure(
          message: "\(output) is a SQLite database, not a page; it was left unchanged. Give "
            + "another -o.")
      }
      let resolved = URL(fileURLWithPath: output).resolvingSymlinksInPath().path
      self = .file(path: resolved, permissions: status.st_mode & 0o7777)
    default:
      throw CLIFailure(
        message: "\(output) is neither a file, a FIFO nor a character device (a block device "
          + "or a socket); a page is never written there. Give another -o.")
    }
  }

  /// Whether a file is written as a stream, never replaced: a FIFO (a pipe to another program)
  /// or a character device (`/dev/stdout`, a terminal). What `report -o` and `export -o` share.
  static func isStream(_ status: stat) -> Bool {
    let type = status.st_mode & S_IFMT
    return type == S_IFIFO || type == S_IFCHR
  }

  /// Whether `path` names a stream (see ``isStream(_:)``), following symbolic links.
  static func isStream(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && isStream(status)
  }

  /// Writes the page.
  func write(_ page: Data) throws {
    switch self {
    case .standardOutput:
      // A failed write ends the process with a message (see Terminal).
      Terminal.standardOutput.write(page)
      Terminal.standardOutput.flush()
    case .stream(let path):
      let descriptor = open(path, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw Self.failure(path, errno) }
      defer { close(descriptor) }
      try Self.writeAll(page, to: descriptor, path)
    case .file(let path, let permissions):
      try Self.replace(path, with: page, permissions: permissions)
    }
  }

  /// Writes `page` beside `path` under a temporary name, readable as `permissions` say
  /// whatever the umask, and renames it over `path`; removes it on any failure.
  private static func replace(_ path: String, with page: Data, permissions: mode_t) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).report-\(getpid())-\(UUID().uuidString)"
    ).path
    let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure(path, errno) }
    do {
      guard fchmod(descriptor, permissions) == 0 else { throw failure(path, errno) }
      try writeAll(page, to: descriptor, path)
      guard fsync(descriptor) == 0 else { throw failure(path, errno) }
      close(descriptor)
      guard rename(temporary, path) == 0 else { throw failure(path, errno) }
    } catch {
      close(descriptor)
      unlink(temporary)
      throw error
    }
  }

  /// Whether the file at `path` starts as an SQLite database does. Opened without blocking, in
  /// case it became a FIFO since it was looked at.
  private static func holdsSQLiteHeader(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 16)
    let count = read(descriptor, &header, header.count)
    return count == 16 && header == Array("SQLite format 3\0".utf8)
  }

  private static func writeAll(_ page: Data, to descriptor: Int32, _ path: String) throws {
    try page.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw failure(path, errno)
        }
        offset += written
      }
    }
  }

  private static func failure(_ path: String, _ code: Int32) -> CLIFailure {
    CLIFailure(message: "Cannot write \(path): \(String(cString: strerror(code))).")
  }
}
