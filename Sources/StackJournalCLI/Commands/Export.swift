import ArgumentParser
import Foundation
import StackJournalCore

extension StackJournalCommand {
  /// `stackjournal export SESSION`: a session as newline-delimited JSON.
  public struct Export: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Write a session as NDJSON: a header with versions, then snapshots and entries.",
      discussion: """
        Line 1 is the header: {"kind": "header", "format": "stackjournal-session", \
        "formatVersion", "schemaVersion", "session": {...}, "payloadVersions": {"min", "max"}, \
        "entries", "snapshots"}; the session holds "drawsFrom", the first entry that journals \
        its draws (format 3). Then, in sequence order, {"kind": "snapshot", ...} and \
        {"kind": "entry", "sequence", "recordedAt", "type", "version", "payload", "delta", \
        "draws"?} lines; "draws" is what the entry's reducer drew, when it drew something. A \
        snapshot at N follows entry N. Read it back with `import`.
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var sessionArgument: SessionArgument

    @Option(
      name: [.customShort("o"), .long],
      help: ArgumentHelp(
        "Write to this file (refused when it exists) instead of standard output.",
        valueName: "file"))
    var output: String?

    @Flag(help: "With --output, print a JSON summary instead of text for people.")
    var json = false

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Checks that the summary has somewhere to go.
    public func validate() throws {
      if json && output == nil {
        throw ValidationError(
          "The export itself is JSON lines; --json is for the summary of --output.")
      }
    }

    /// Writes the export.
    public func run() async throws {
      try await reportingErrors {
        let journal = try await database.openReadOnly()
        let session = sessionArgument.id
        _ = try await journal.requireSession(session)
        let header: SessionExportHeader
        if let output {
          // A FIFO or a character device (a pipe to another program, /dev/stdout) is written
          // as a stream. Anything else is created here or refused: never an existing file,
          // and readable by its owner only.
          let streaming = PageDestination.isStream(output)
          let descriptor =
            streaming
            ? open(output, O_WRONLY | O_CLOEXEC)
            : open(output, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
          guard descriptor >= 0 else {
            let code = errno
            throw CLIFailure(
              message: code == EEXIST
                ? "\(output) exists; export to a new file."
                : "Cannot \(streaming ? "open" : "create") \(output): "
                  + "\(String(cString: strerror(code)))\(streaming ? "." : "; check the directory.")")
          }
          let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
          do {
            header = try await SessionExporter().export(session, of: journal) {
              try handle.write(contentsOf: $0)
            }
            guard streaming || fsync(descriptor) == 0 else {
              throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            close(descriptor)
          } catch {
            close(descriptor)
            if !streaming { unlink(output) }
            var failure = CLIFailure(error)
            if !(error is StorageError) {
              failure.message = "Cannot write the export to \(output): "
                + (CLIFailure.reason(error) ?? failure.message)
                + (streaming ? "." : ". The partial file was removed.")
            } else if let error = error as? StorageError, error.code == .changedDuringRead,
              !streaming
            {
              failure.message += " The partial file \(output) was removed."
            }
            throw failure
          }
        } else {
          let out = Terminal.standardOutput
          header = try await SessionExporter().export(session, of: journal) {
            out.write(String(decoding: $0, as: UTF8.self))
          }
          out.flush()
          return
        }
        let out = Terminal.standardOutput
        defer { out.flush() }
        if json {
          out.rawLine(
            JSONValue.object([
              ("session", .string(session.rawValue)), ("file", .string(output ?? "")),
              ("entries", .int(header.entryCount)), ("snapshots", .int(header.snapshotCount)),
              ("headSequence", .int(header.headSequence)),
              ("formatVersion", .int(header.formatVersion)),
              ("schemaVersion", .int(header.schemaVersion)),
            ]).pretty)
        } else {
          out.line(
            "Exported session \(session) to \(output ?? ""): \(header.entryCount) entries, "
              + "\(header.snapshotCount) snapshots, head \(header.headSequence).")
        }
      }
    }
  }
}
