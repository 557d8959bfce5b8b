import Foundation

/// The folder holding the package's built products: the test bundle's own folder, where
/// `swift test` also builds the package's executables.
public var builtProductsDirectory: URL {
  URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent()
}

/// An executable of this package, built by `swift test` next to the test bundle.
public func builtExecutable(_ name: String) throws -> URL {
  var directory = builtProductsDirectory
  // On some platforms the test bundle is a directory (`….xctest/Contents/MacOS/…`).
  while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path) {
    let parent = directory.deletingLastPathComponent()
    guard parent.path != directory.path else {
      throw CocoaError(
        .fileNoSuchFile,
        userInfo: [
          NSLocalizedDescriptionKey:
            "The executable '\(name)' is not built next to the tests (\(builtProductsDirectory.path)); run `swift build` first."
        ])
    }
    directory = parent
  }
  return directory.appendingPathComponent(name)
}
