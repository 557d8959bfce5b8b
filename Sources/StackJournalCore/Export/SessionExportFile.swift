import Foundation

/// A session export read and checked from start to end, without a database.
public struct SessionExportFile: Sendable {
  /// Where the file is.
  public var path: String
  /// Its header.
  public var header: SessionExportHeader
  /// The payload versions found in its lines.
  public var payloadVersions: ClosedRange<Int>?
  /// The latest time of its entries, as stored, and the number of the line of the entry that
  /// has it; `nil` without entries.
  public var latestEntry: (time: String, line: Int)?

  /// The longest line a session export may have, in bytes: 64 MiB.
  ///
  /// The longest line is a snapshot: the whole navigation state and its stacks. A navigation
  /// state holds what the screens on a stack need to come back (IDs, form fields, a fetched
  /// text); the demo's is under a kilobyte and the benchmarks' a few. 64 MiB leaves room for
  /// states thousands of times larger, while a file that is not an export (`/dev/zero`, a
  /// binary) is refused after reading that much instead of filling the memory.
  public static let maximumLineBytes = 64 << 20

  /// Reads a session export and checks every line: the header's format, each line's fields and
  /// JSON, sequences from the oldest snapshot to the head without a gap, every delta applying to
  /// the stacks before it, every snapshot's stacks equal to the journal's, no stack above
  /// ``StackRecord/maximumElements``. The file is read line by line: memory follows the longest
  /// line and the largest stack, not the number of lines.
  ///
  /// Throws a ``StorageError`` with code ``StorageError/Code/invalidData`` whose message names
  /// the line for a malformed file, and ``StorageError/Code/fileNotFound`` or
  /// ``StorageError/Code/io`` when it cannot be read.
  public static func read(path: String) throws -> SessionExportFile {
    try read(path: path, maximumStackElements: StackRecord.maximumElements)
  }

  /// Reads as ``read(path:)`` does, with another bound on the elements of a stack.
  package static func read(path: String, maximumStackElements: Int) throws -> SessionExportFile {
    var reader = try SessionExportReader(path: path)
    reader.maximumStackElements = maximumStackElements
    defer { reader.close() }
    let header = try reader.header()
    var versions: ClosedRange<Int>?
    try reader.forEachLine(header) { line in
      let version = line.version
      versions =
        versions.map { min($0.lowerBound, version)...max($0.upperBound, version) }
        ?? version...version
    }
    return SessionExportFile(
      path: path, header: header, payloadVersions: versions,
      latestEntry: reader.latestEntry)
  }
}

extension SessionExportFile {
  /// Reads the file's lines again, checking them as ``read(path:)`` did (a file that changed
  /// since is refused), and returns the stacks at the session's head.
  package func readLines(_ body: (SessionExportLine) throws -> Void) throws -> [StackRecord] {
    var reader = try SessionExportReader(path: path)
    defer { reader.close() }
    guard try reader.header() == header else {
      throw reader.malformed("changed since the file was checked")
    }
    return try reader.forEachLine(header, body)
  }
}
