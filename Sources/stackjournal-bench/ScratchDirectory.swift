import Foundation

/// Where one benchmark keeps its journal files: a new directory under the system's temporary
/// directory, removed with everything in it by ``remove()``.
struct ScratchDirectory {
  let url: URL

  init(prefix: String) throws {
    let name = "\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
    url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
  }

  /// The path of the file `name` in the directory.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Removes the directory; what cannot be removed is left.
  func remove() { try? FileManager.default.removeItem(at: url) }
}
