import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs `body` with the process's standard error sent to a temporary file, and returns what was
/// written there meanwhile (by any thread of the process).
public func capturingStandardError(
  isolation: isolated (any Actor)? = #isolation,
  _ body: () async throws -> Void
) async throws -> String {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("stackjournal-stderr-\(UUID().uuidString)")
  guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
  }
  defer { try? FileManager.default.removeItem(at: url) }
  let file = try FileHandle(forWritingTo: url)
  defer { try? file.close() }
  let saved = dup(STDERR_FILENO)
  fflush(nil)
  dup2(file.fileDescriptor, STDERR_FILENO)
  func restore() {
    fflush(nil)
    dup2(saved, STDERR_FILENO)
    close(saved)
  }
  do {
    try await body()
  } catch {
    restore()
    throw error
  }
  restore()
  return String(decoding: try Data(contentsOf: url), as: UTF8.self)
}
