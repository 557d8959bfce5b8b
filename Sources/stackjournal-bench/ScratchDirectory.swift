import Foundation

/// Where one benchmark keeps its journal files: a new directory under the system's temporary
/// directory, removed with everything in it by ``remove()``, or one the user names, kept.
struct ScratchDirectory {
  let url: URL
  /// Whether ``remove()`` leaves the directory: the user asked to keep it.
  private let kept: Bool

  init(prefix: String) throws {
    let name = "\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
    url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
    kept = false
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
  }

  /// A new directory at `path`, left in place by ``remove()``; throws when it exists.
  init(keepingAt path: String) throws {
    url = URL(fileURLWithPath: path)
    kept = true
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    } catch {
      let parent = url.deletingLastPathComponent().path
      let reason =
        FileManager.default.fileExists(atPath: path)
        ? "it exists"
        : FileManager.default.fileExists(atPath: parent)
          ? error.localizedDescription : "\(parent) does not exist"
      throw BenchmarkFailure(
        "--keep \(path): cannot create the directory (\(reason)); name a new directory")
    }
  }

  /// The path of the file `name` in the directory.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Removes the directory unless it is kept; what cannot be removed is left.
  func remove() {
    guard !kept else { return }
    try? FileManager.default.removeItem(at: url)
  }
}
