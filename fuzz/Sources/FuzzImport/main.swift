import Foundation
// libFuzzer target: the whole import path on arbitrary bytes — read the export, judge it, and,
// when the verdict allows, import it into a new journal, which must then verify clean.
import FuzzDriver
import StackStorage

#if canImport(Glibc)
  import Glibc
#endif

private let directory: URL = {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("stackjournal-fuzz-import-\(getpid())", isDirectory: true)
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory
}()

runFuzzer { input in
  let exportPath = directory.appendingPathComponent("input.ndjson").path
  let journalPath = directory.appendingPathComponent("journal.sqlite").path
  for suffix in ["", "-wal", "-shm"] { unlink(journalPath + suffix) }
  guard FileManager.default.createFile(atPath: exportPath, contents: Data(input)) else { return }
  do {
    let file = try SessionExportFile.read(path: exportPath)
    guard file.verdict(into: .newFile, as: nil, payloadVersion: nil).level == .fine else { return }
    _ = try SessionImporter().importSessionIntoNewJournal(file, at: journalPath)
    let journal = try SQLiteJournal(path: journalPath)
    defer { try? journal.close() }
    let verification = try journal.verifyStorage()
    // What an import accepted, verify must call clean.
    precondition(verification.isClean, "imported, then not clean: \(verification.sessions)")
  } catch let error as StorageError {
    precondition(!error.message.isEmpty)
  } catch {
    preconditionFailure("an error that is not a StorageError: \(error)")
  }
}
