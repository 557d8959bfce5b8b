import Foundation
import StackJournalCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The session export `import` reads: a regular file where it is, or a stream — `-` for standard
/// input, a FIFO, a character device, `/dev/stdin` — read once, into a temporary file readable by
/// its owner only that the check and the import then read (a stream cannot be read twice).
///
/// A stream is copied only as far as an export can go: to the byte that makes a line longer than
/// an export's longest, or to one line past the lines its header announces (past the first
/// line when that is no header); what the copy holds is then checked as a file is.
struct ImportInput {
  /// The export in messages: `standard input`, or the path given.
  let name: String
  /// The file the export is read from.
  let path: String
  private let copy: String?
  private static let standardInput = "standard input"

  init(_ argument: String) throws {
    if argument != "-" {
      var status = stat()
      let isStream =
        stat(argument, &status) == 0
        && [S_IFIFO, S_IFCHR, S_IFSOCK].contains(status.st_mode & S_IFMT)
      guard isStream else {
        (name, path, copy) = (argument, argument, nil)
        return
      }
    }
    name = argument == "-" ? Self.standardInput : argument
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
      ".stackjournal-import-\(getpid())-\(UUID().uuidString)"
    ).path
    let source = argument == "-" ? STDIN_FILENO : open(argument, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else { throw Self.failure("Cannot read \(name)", errno) }
    defer { if source != STDIN_FILENO { close(source) } }
    let target = open(copy, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard target >= 0 else { throw Self.failure("Cannot create \(copy) to read \(name)", errno) }
    defer { close(target) }
    self.path = copy
    self.copy = copy
    do {
      try Self.copy(from: source, to: target, name: name)
    } catch {
      unlink(copy)
      throw error
    }
  }

  /// Removes the copy of a stream.
  func remove() {
    if let copy { unlink(copy) }
  }

  /// `error` as a failure whose message names the input as given, not its copy.
  func naming(_ error: any Error) -> CLIFailure {
    var failure = CLIFailure(error)
    guard let copy else { return failure }
    if name == Self.standardInput {
      failure.message = failure.message.replacingOccurrences(
        of: "The file \(copy)", with: "Standard input")
    }
    failure.message = failure.message.replacingOccurrences(of: copy, with: name)
    return failure
  }

  /// Copies `source` to `target` as far as an export can go (see ``ImportInput``).
  private static func copy(from source: Int32, to target: Int32, name: String) throws {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var limit = ExportStreamLimit()
    while true {
      let count = read(source, &buffer, buffer.count)
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("Cannot read \(name)", errno)
      }
      if count == 0 { return }
      let last = buffer[0..<count].firstIndex { !limit.accept($0) }
      try writeAll(buffer[0..<(last.map { $0 + 1 } ?? count)], to: target, name: name)
      if last != nil { return }
    }
  }

  private static func writeAll(_ bytes: ArraySlice<UInt8>, to target: Int32, name: String) throws {
    try bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = write(target, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw failure("Cannot keep a copy of \(name) to import it", errno)
        }
        offset += written
      }
    }
  }

  private static func failure(_ what: String, _ code: Int32) -> CLIFailure {
    CLIFailure(message: "\(what): \(String(cString: strerror(code))). Nothing was imported.")
  }
}

/// How much of a stream can be a session export, byte by byte.
private struct ExportStreamLimit {
  private var lines = 0
  private var lineBytes = 0
  private var header: [UInt8] = []
  private var allowedLines = Int.max

  /// Takes the next byte; `false` when nothing after it can belong to an export: it makes a line
  /// longer than an export's longest, or ends one line more than the header announces (the
  /// first line when it is no header).
  mutating func accept(_ byte: UInt8) -> Bool {
    if byte == 0x0A {
      if lineBytes > 0 {
        lines += 1
        if lines == 1 { allowedLines = Self.announcedLines(header) }
      }
      lineBytes = 0
      return lines < allowedLines
    }
    if lineBytes == 0, byte == 0x20 || byte == 0x09 || byte == 0x0D { return true }
    lineBytes += 1
    if lines == 0 { header.append(byte) }
    return lineBytes <= SessionExportFile.maximumLineBytes
  }

  /// How many lines the export whose header line is `header` may hold: the header, its entries
  /// and snapshots, and one more, so a file longer than announced is still refused as such.
  private static func announcedLines(_ header: [UInt8]) -> Int {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any],
      let entries = (object["entries"] as? NSNumber)?.int64Value,
      let snapshots = (object["snapshots"] as? NSNumber)?.int64Value,
      entries >= 0, snapshots >= 0
    else { return 1 }
    let (sum, overflow) = entries.addingReportingOverflow(snapshots)
    return overflow || sum > Int64(Int.max - 2) ? Int.max - 1 : Int(sum) + 2
  }

}
