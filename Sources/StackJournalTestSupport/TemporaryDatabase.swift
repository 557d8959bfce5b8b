import Foundation

/// A fresh temporary directory for one test or benchmark run, deleted with its contents by
/// ``remove()`` or when released.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let journal = try SQLiteJournal(path: directory.path("journal.sqlite"))
/// ```
public final class TemporaryDirectory: @unchecked Sendable {
  /// The directory's location.
  public let url: URL

  /// Creates a new, empty directory under the system's temporary directory.
  public init(prefix: String = "StackJournal") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    remove()
  }

  /// The path of a file named `name` inside the directory.
  public func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  /// Deletes the directory and everything in it; does nothing when it is already gone.
  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// The bytes of a file, to compare a file before and after an operation that must not change it.
public func fileBytes(_ path: String) throws -> Data {
  try Data(contentsOf: URL(fileURLWithPath: path))
}
