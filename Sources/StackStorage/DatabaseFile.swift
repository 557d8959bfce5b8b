import Foundation
import GRDB

/// Checks an existing file before any read-write connection touches it.
///
/// First the 16-byte SQLite header and the declared size, then a read-only connection reads the
/// schema state. Nothing here writes to the file, so a refused file stays byte-for-byte the same.
enum DatabaseFile {
  private static let magic = Array("SQLite format 3\u{0}".utf8)

  /// Whether a file exists at `path`.
  static func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
  }

  /// Throws when the file at `path` is empty, not an SQLite database, or shorter than its header
  /// declares.
  static func checkHeader(_ path: String) throws {
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
    let changeCounter = integer(24, 4)
    let pageCount = integer(28, 4)
    let versionValidFor = integer(92, 4)
    let walSize = (try? fileSize(path + "-wal")) ?? 0
    if walSize == 0, pageCount > 0, versionValidFor == changeCounter,
      pageCount * pageSize > size
    {
      throw truncated(
        path,
        "its header declares \(pageCount) pages of \(pageSize) bytes (\(pageCount * pageSize) "
          + "bytes) but the file holds \(size) bytes"
      )
    }
  }

  /// Reads the schema state through a read-only connection that creates no file.
  static func readSchemaState(_ path: String) throws -> SchemaState {
    do {
      let connection = try ReadOnlyConnection(
        path: path, immutable: ReadOnlyConnection.hasNoLogFiles(path))
      return try SchemaState.read(connection)
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: "checking the file")
    }
  }

  static func fileSize(_ path: String) throws -> Int {
    do {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      return (attributes[.size] as? NSNumber)?.intValue ?? 0
    } catch {
      throw StorageError(
        code: .io, message: "Cannot read the size of \(path).", path: path, underlying: error)
    }
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
