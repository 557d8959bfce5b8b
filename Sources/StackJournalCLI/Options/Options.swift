import ArgumentParser
import Foundation
import StackStorage

#if PostgreSQL
  import StackStoragePostgres
#endif

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

  /// The journal: a `postgres://` URL as given, or the real file the path given (from the
  /// option or the environment) names, resolved once (see ``ResolvedJournalPaths``).
  var path: String {
    ResolvedJournalPaths.path(db ?? Self.environmentPath ?? "")
  }

  /// Opens the journal read-only: nothing is created, migrated or written, and an app may keep
  /// appending while the command reads. A `postgres://` URL opens the PostgreSQL journal there
  /// (in a build with the `PostgreSQL` trait), whose statements run in read-only transactions.
  /// With `watchingForWrites` (`log --follow`) an SQLite reader joins the write-ahead log to see
  /// new entries, which may create its `-wal`/`-shm` files.
  func openReadOnly(
    payloadVersion: Int? = nil,
    upcasters: [PayloadUpcaster] = [],
    watchingForWrites: Bool = false
  ) async throws -> any RetainableJournal {
    if Self.isPostgresURL(path) {
      return try await openPostgres(
        payloadVersion: payloadVersion, upcasters: upcasters, readOnly: true)
    }
    return try openSQLiteReadOnly(
      payloadVersion: payloadVersion, upcasters: upcasters, watchingForWrites: watchingForWrites)
  }

  /// Opens an SQLite journal file read-only.
  func openSQLiteReadOnly(
    payloadVersion: Int? = nil,
    upcasters: [PayloadUpcaster] = [],
    watchingForWrites: Bool = false
  ) throws -> SQLiteJournal {
    try requireFile()
    return try SQLiteJournal(
      path: path,
      options: .init(
        payloadVersion: payloadVersion, upcasters: upcasters, readOnly: true,
        watchesForWrites: watchingForWrites, statementTrace: try Self.statementTrace()))
  }

  /// Opens an existing SQLite journal to write rows, never changing its schema: a journal that
  /// needs migrations is refused.
  func openForWriting() throws -> SQLiteJournal {
    try requireFile()
    return try SQLiteJournal(
      path: path, options: .init(migrate: false, statementTrace: try Self.statementTrace()))
  }

  /// With `STACKJOURNAL_TRACE_SQL=1`, what prints each SQL statement the journal runs to
  /// standard error as one line, `sql: …`, whitespace folded and anything not printable
  /// escaped; the values bound to a statement never appear. Unset, empty or `0`: nothing.
  static func statementTrace() throws -> (@Sendable (String) -> Void)? {
    switch ProcessInfo.processInfo.environment["STACKJOURNAL_TRACE_SQL"] ?? "" {
    case "", "0":
      return nil
    case "1":
      return { sql in
        let line = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        Terminal.standardError.write("sql: " + Terminal.printable(line) + "\n")
      }
    case let other:
      throw CLIFailure(
        message: "STACKJOURNAL_TRACE_SQL is '\(other)': set it to 1 to print the SQL statements "
          + "a command runs, or to 0 (or nothing) not to.")
    }
  }

  /// Opens an existing journal to remove history (`compact`, `prune`), never changing its
  /// schema: a file or a PostgreSQL database that needs migrations is refused. `--vacuum`
  /// applies to SQLite files only.
  func openForRetention(vacuum: Bool) async throws -> (any RetainableJournal, vacuum: SQLiteJournal?) {
    if Self.isPostgresURL(path) {
      if vacuum {
        throw CLIFailure(
          message: "--vacuum rebuilds an SQLite file; PostgreSQL gives the space of deleted "
            + "rows back through its own (auto)vacuum. Run again without --vacuum.")
      }
      return (try await openPostgres(readOnly: false), nil)
    }
    let journal = try openForWriting()
    return (journal, vacuum ? journal : nil)
  }

  /// Refuses, before anything is read or written, an SQLite file whose schema someone altered
  /// (an added trigger, say), as opening it for writing would: for commands that read first and
  /// write after.
  func requireUnalteredSchema() throws {
    guard !Self.isPostgresURL(path) else { return }
    try requireFile()
    try SQLiteJournal.requireUnalteredSchema(path: path)
  }

  /// Opens the PostgreSQL journal at the URL given, or says in one line how to get a build
  /// that can.
  func openPostgres(
    payloadVersion: Int? = nil,
    upcasters: [PayloadUpcaster] = [],
    readOnly: Bool,
    migrate: Bool = false
  ) async throws -> any RetainableJournal {
    #if PostgreSQL
      return try await PostgresJournal(
        url: path,
        options: .init(
          payloadVersion: payloadVersion, upcasters: upcasters, readOnly: readOnly,
          migrate: migrate, maximumConnections: 2))
    #else
      throw Self.noPostgresSupport
    #endif
  }

  static let noPostgresSupport = CLIFailure(
    message: "This stackjournal was built without PostgreSQL support; build it with "
      + "`swift build --traits PostgreSQL` to use a postgres:// journal.")

  /// Throws a clear error when the path is a directory, or a PostgreSQL URL where an SQLite
  /// file is opened.
  func requireFile() throws {
    if Self.isPostgresURL(path) {
      #if PostgreSQL
        throw CLIFailure(
          message: "This needs an SQLite journal file, not a postgres:// URL.")
      #else
        throw Self.noPostgresSupport
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

/// The journal files of this process's commands, each path resolved the first time a command
/// asks for it and the same after (see `JournalPath`): every check and every open of a command
/// meets one file, even when a symbolic link on the way changes meanwhile. A name that starts
/// with `file:` is a file of that name, never an SQLite URI; a `postgres://` URL stays as given.
public enum ResolvedJournalPaths {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var paths: [String: String] = [:]

  /// The real file `given` names, or `given` itself when it is a `postgres://` URL.
  public static func path(_ given: String) -> String {
    guard !DatabaseOptions.isPostgresURL(given) else { return given }
    return lock.withLock {
      if let path = paths[given] { return path }
      let path = JournalPath.resolve(given)
      paths[given] = path
      return path
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

extension InspectableJournal {
  /// The session's listing, or a one-line error naming the sessions there are.
  func requireSession(_ id: SessionID) async throws -> SessionInfo {
    if let info = try await session(id) { return info }
    let known = try await sessions().prefix(5).map(\.id.description)
    throw CLIFailure(
      message: "There is no session \(id) in \(locationDescription)"
        + (known.isEmpty
          ? "; it holds no session."
          : "; it holds \(known.joined(separator: ", "))\(known.count == 5 ? ", …" : "")."))
  }

  /// Checks that a sequence lies in a session's journal.
  func requireSequence(_ sequence: Int64, session: SessionID, option: String) async throws {
    let (base, head) = try await journalBounds(session: session)
    let lastEntry = try await lastEntrySequence(session: session)
    try SequenceRange.require(
      sequence, session: session, base: base, head: head, lastEntry: { lastEntry },
      option: option, location: locationDescription)
  }
}

/// Where a sequence given on the command line must lie.
enum SequenceRange {
  /// Checks that a sequence lies in a session's journal from `base` to `head`, whose last
  /// entry `lastEntry` reads; `location` names the journal.
  static func require(
    _ sequence: Int64, session: SessionID, base: Int64, head: Int64,
    lastEntry: () throws -> Int64?, option: String, location: String
  ) throws {
    guard sequence >= 0, sequence <= head else {
      throw CLIFailure(
        message: "Session \(session) has no sequence \(sequence) (\(option)): its journal runs "
          + "from \(base) to \(head).")
    }
    let last = max(try lastEntry() ?? base, base)
    guard sequence <= last else {
      throw CLIFailure(
        message: "Session \(session) records head \(head), but its journal's entries end at "
          + "\(last), so sequence \(sequence) (\(option)) cannot be shown: the session's rows "
          + "disagree. Run `stackjournal verify --db \(location)` to see what is wrong.")
    }
    guard sequence >= base else {
      throw CLIFailure(
        message: "Session \(session) was compacted: sequences before \(base) are gone "
          + "(\(option) \(sequence)); its journal now runs from \(base) to \(head).")
    }
  }
}
