import Foundation
// libFuzzer target: the session export reader (`import`'s parser) on arbitrary bytes.
import FuzzDriver
import StackStorage

#if canImport(Glibc)
  import Glibc
#endif

private let path: String = {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("stackjournal-fuzz-\(getpid())", isDirectory: true)
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory.appendingPathComponent("input.ndjson").path
}()

runFuzzer { input in
  let bytes = Data(input)
  guard FileManager.default.createFile(atPath: path, contents: bytes) else { return }
  do {
    let file = try SessionExportFile.read(path: path)
    // What the reader accepted must be consistent with itself.
    precondition(file.header.entryCount >= 0)
    precondition(file.header.headSequence >= file.header.baseSequence)
    _ = file.verdict(into: .newFile, as: nil, payloadVersion: nil)
  } catch let error as StorageError {
    precondition(!error.message.isEmpty)
  } catch {
    preconditionFailure("an error that is not a StorageError: \(error)")
  }
}
