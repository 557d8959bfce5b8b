import Foundation
import StackStorage

#if PostgreSQL
  import StackStoragePostgres
#endif

/// The options a conformance test gives every backend it runs against.
public struct BackendOptions: Sendable {
  /// Write a snapshot with every entry whose sequence is a multiple of this.
  public var snapshotInterval: Int
  /// The app's payload version; `nil` reads payloads raw.
  public var payloadVersion: Int?
  /// The upcasters to that version.
  public var upcasters: [PayloadUpcaster]

  /// Creates options.
  public init(snapshotInterval: Int = 100, payloadVersion: Int? = nil, upcasters: [PayloadUpcaster] = []) {
    self.snapshotInterval = snapshotInterval
    self.payloadVersion = payloadVersion
    self.upcasters = upcasters
  }
}

/// A fresh, empty journal of one backend, for a conformance test.
public struct BackendUnderTest: Sendable {
  /// The backend's name, for failure messages: `SQLite in memory`, `SQLite on disk`, `PostgreSQL`.
  public let name: String
  /// The journal.
  public let journal: any JournalBackend
  /// Opens the same journal again (another connection pool), as a second process would, with
  /// other options when given. An in-memory journal cannot be reopened: it returns itself.
  public let open: @Sendable (BackendOptions?) async throws -> any JournalBackend
  /// Imports a checked session export into ``journal``, as the session it names or under
  /// another identifier, as the backend's own import does it.
  public let importSession: @Sendable (SessionExportFile, SessionID?) async throws -> ImportResult
  /// Whether ``open`` gives another handle on the same journal (all but an in-memory one).
  public var canReopen: Bool { name != "SQLite in memory" }

  /// Opens the same journal again with the options it was made with.
  public func reopen() async throws -> any JournalBackend { try await open(nil) }

  /// Opens the same journal again with other options.
  public func reopen(_ options: BackendOptions) async throws -> any JournalBackend {
    try await open(options)
  }
  /// The temporary directory of an on-disk journal, kept as long as the journal is used.
  let directory: TemporaryDirectory?
}

/// The backends the conformance tests run against: SQLite always, PostgreSQL when the package is
/// built with the `PostgreSQL` trait and `STACKJOURNAL_TEST_POSTGRES_URL` names a server.
public enum Backends {
  /// The environment variable with the URL of the PostgreSQL server the tests may use.
  public static let postgresURLVariable = "STACKJOURNAL_TEST_POSTGRES_URL"

  /// A fresh journal of every backend under test.
  public static func all(_ options: BackendOptions = .init()) async throws -> [BackendUnderTest] {
    var backends = [try sqliteInMemory(options), try sqliteOnDisk(options)]
    if let postgres = try await postgres(options) { backends.append(postgres) }
    return backends
  }

  /// A fresh in-memory SQLite journal.
  public static func sqliteInMemory(_ options: BackendOptions = .init()) throws
    -> BackendUnderTest
  {
    let journal = try SQLiteJournal.inMemory(options: sqliteOptions(options))
    return BackendUnderTest(
      name: "SQLite in memory", journal: journal, open: { _ in journal },
      importSession: { try SessionImporter().importSession($0, as: $1, into: journal) },
      directory: nil)
  }

  /// A fresh SQLite journal in a file of a new temporary directory.
  public static func sqliteOnDisk(_ options: BackendOptions = .init()) throws -> BackendUnderTest
  {
    let directory = try TemporaryDirectory(prefix: "StackJournalConformance")
    let path = directory.path("journal.sqlite")
    let sqlite = sqliteOptions(options)
    let journal = try SQLiteJournal(path: path, options: sqlite)
    return BackendUnderTest(
      name: "SQLite on disk", journal: journal,
      open: { try SQLiteJournal(path: path, options: $0.map(sqliteOptions) ?? sqlite) },
      importSession: { try SessionImporter().importSession($0, as: $1, into: journal) },
      directory: directory)
  }

  static func sqliteOptions(_ options: BackendOptions) -> SQLiteJournal.Options {
    SQLiteJournal.Options(
      snapshotInterval: options.snapshotInterval, payloadVersion: options.payloadVersion,
      upcasters: options.upcasters)
  }

  /// Why PostgreSQL is not under test in this run, or `nil` when it is.
  public static var postgresSkipReason: String? {
    #if PostgreSQL
      guard let url = ProcessInfo.processInfo.environment[postgresURLVariable], !url.isEmpty
      else {
        return "\(postgresURLVariable) is not set; start a server with "
          + "`export \(postgresURLVariable)=$(scripts/postgres.sh start)`"
      }
      return nil
    #else
      return "built without the PostgreSQL trait; run `swift test --traits PostgreSQL`"
    #endif
  }

  /// The URL of the PostgreSQL server under test, with the schema `schema`.
  public static func postgresURL(schema: String) -> String? {
    guard postgresSkipReason == nil,
      let url = ProcessInfo.processInfo.environment[postgresURLVariable]
    else { return nil }
    return url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"
  }

  /// A fresh schema name, so each test's PostgreSQL journal starts empty.
  public static func freshSchema() -> String {
    "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
  }

  private static let skipNotice: Void = {
    if let reason = postgresSkipReason {
      print("skipped: PostgreSQL backend tests: \(reason)")
    }
  }()

  /// A fresh PostgreSQL journal in a new schema of the server under test, or `nil` (saying
  /// once that the PostgreSQL runs were skipped) when there is none.
  public static func postgres(_ options: BackendOptions = .init()) async throws -> BackendUnderTest? {
    _ = skipNotice
    #if PostgreSQL
      guard let url = postgresURL(schema: freshSchema()) else { return nil }
      @Sendable func postgresOptions(_ options: BackendOptions) -> PostgresJournal.Options {
        PostgresJournal.Options(
          snapshotInterval: options.snapshotInterval, payloadVersion: options.payloadVersion,
          upcasters: options.upcasters)
      }
      let journal = try await PostgresJournal(url: url, options: postgresOptions(options))
      return BackendUnderTest(
        name: "PostgreSQL", journal: journal,
        open: { try await PostgresJournal(url: url, options: postgresOptions($0 ?? options)) },
        importSession: { try await journal.importSession($0, as: $1) },
        directory: nil)
    #else
      return nil
    #endif
  }
}
