import ArgumentParser
import Foundation
import StackStorage

/// The journal file a command works on: `--db PATH`, or `STACKJOURNAL_DB`.
struct DatabaseOptions: ParsableArguments {
  @Option(
    name: .customLong("db"),
    help: ArgumentHelp(
      "The journal file (default: the STACKJOURNAL_DB environment variable).",
      valueName: "path"))
  var db: String?

  func validate() throws {
    guard db != nil || Self.environmentPath != nil else {
      throw ValidationError(
        "No journal given: pass --db PATH or set STACKJOURNAL_DB to the journal file.")
    }
  }

  /// Whether a `--db` value is a PostgreSQL URL rather than a file path.
  static func isPostgresURL(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  private static var environmentPath: String? {
    ProcessInfo.processInfo.environment["STACKJOURNAL_DB"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The path given, from the option or the environment.
  var path: String {
    db ?? Self.environmentPath ?? ""
  }

  /// Opens the journal read-only: nothing is created, migrated or written, and an app may keep
  /// appending while the command reads. With `watchingForWrites` (`log --follow`) the reader
  /// joins the write-ahead log to see new entries, which may create its `-wal`/`-shm` files.
  func openReadOnly(
    payloadVersion: Int? = nil,
    upcasters: [PayloadUpcaster] = [],
    watchingForWrites: Bool = false
  ) throws -> SQLiteJournal {
    try requireFile()
    return try SQLiteJournal(
      path: path,
      options: .init(
        payloadVersion: payloadVersion, upcasters: upcasters, readOnly: true,
        watchesForWrites: watchingForWrites))
  }

  /// Opens an existing journal to write rows, never changing its schema: a journal that needs
  /// migrations is refused.
  func openForWriting() throws -> SQLiteJournal {
    try requireFile()
    return try SQLiteJournal(path: path, options: .init(migrate: false))
  }

  /// Throws a clear error when the path is a directory; a missing file is reported by the
  /// journal itself.
  func requireFile() throws {
    if Self.isPostgresURL(path) {
      #if PostgreSQL
        throw CLIFailure(
          message: "The CLI reads and writes SQLite journals only so far; use the library's "
            + "PostgresJournal for a postgres:// journal, or give the path of a .sqlite file.")
      #else
        throw CLIFailure(
          message: "This stackjournal was built without PostgreSQL support; build it with "
            + "`swift build --traits PostgreSQL` to use a postgres:// journal.")
      #endif
    }
    if path.hasSuffix("/") {
      throw CLIFailure(
        message: "\(path) ends with a slash, so it names a directory, not a journal file; give "
          + "the file's path without the trailing slash.")
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw CLIFailure(
        message: "\(path) is a directory, not a journal file; give the path of the .sqlite file.")
    }
    if !FileManager.default.fileExists(atPath: path) {
      throw CLIFailure(message: "There is no journal at \(path); check the path.")
    }
  }
}

/// How a command prints: for people, or one JSON document.
struct OutputOptions: ParsableArguments {
  @Flag(help: "Print one JSON document instead of text for people.")
  var json = false
}

/// A session argument.
struct SessionArgument: ParsableArguments {
  @Argument(help: ArgumentHelp("The session's identifier (see `sessions`).", valueName: "session"))
  var session: String

  var id: SessionID { SessionID(session) }
}

extension SQLiteJournal {
  /// The session's listing, or a one-line error naming the sessions there are.
  func requireSession(_ id: SessionID) throws -> SessionInfo {
    if let info = try session(id) { return info }
    let known = try sessions().prefix(5).map(\.id.description)
    throw CLIFailure(
      message: "There is no session \(id) in \(path ?? "the journal")"
        + (known.isEmpty
          ? "; it holds no session."
          : "; it holds \(known.joined(separator: ", "))\(known.count == 5 ? ", …" : "")."))
  }

  /// Checks that a sequence lies in a session's journal.
  func requireSequence(_ sequence: Int64, session: SessionID, option: String) throws {
    let (base, head) = try journalBounds(session: session)
    guard sequence >= 0, sequence <= head else {
      throw CLIFailure(
        message: "Session \(session) has no sequence \(sequence) (\(option)): its journal runs "
          + "from \(base) to \(head).")
    }
    let last = max(try lastEntrySequence(session: session) ?? base, base)
    guard sequence <= last else {
      throw CLIFailure(
        message: "Session \(session) records head \(head), but its journal's entries end at "
          + "\(last), so sequence \(sequence) (\(option)) cannot be shown: the session's rows "
          + "disagree. Run `stackjournal verify --db \(path ?? "PATH")` to see what is wrong.")
    }
    guard sequence >= base else {
      throw CLIFailure(
        message: "Session \(session) was compacted: sequences before \(base) are gone "
          + "(\(option) \(sequence)); its journal now runs from \(base) to \(head).")
    }
  }
}
