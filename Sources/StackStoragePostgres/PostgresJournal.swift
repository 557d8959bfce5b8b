#if PostgreSQL
  import Foundation
  import Logging
  import NIOCore
  import PostgresNIO
  import StackJournalCore

  /// A journal of many sessions in one PostgreSQL database, shared by every process and machine
  /// that connects to it, with the semantics of `SQLiteJournal`.
  ///
  /// ```swift
  /// let journal = try PostgresJournal(url: "postgres://app@db.internal/app")
  /// defer { journal.close() }
  /// let store = try RecordingStore.open(
  ///   session: "user-42", journal: journal, initialState: AppFeature.State(),
  ///   reducer: { AppFeature() })
  /// ```
  ///
  /// Opening connects once to check the journal's PostgreSQL schema (see
  /// ``PostgresLocation/schema``): a schema that is not a journal, or one newer than this build,
  /// is refused and left unchanged; pending migrations are applied, each in its own transaction.
  /// It then keeps a pool of connections (postgres-nio's `PostgresClient`). An append is one
  /// statement, `append_entry(…)`, which moves the session's head under its row lock: of two
  /// writers racing on one session, one gets `StorageError.Code.sequenceConflict` and writes
  /// nothing. Every write returns only once the server has committed it (a statement's own
  /// answer comes before its transaction commits): an append through a procedure that commits
  /// before it answers, the other writes in a transaction whose `COMMIT` they wait for. Commits
  /// use the server's `synchronous_commit` (on by default): an append that returned is on the
  /// server's disk.
  ///
  /// When the server restarts under a writer, the call in flight throws
  /// `StorageError.Code.connectionLost` (its outcome is unknown: read the head) and the next
  /// call connects again.
  ///
  /// The journal logs through the `Logger` its opener passes, as postgres-nio's `PostgresClient`
  /// does (and hands it to the pool as its background logger): opening (`info`), each migration
  /// applied (`notice`), a sequence conflict (`info`), a connection lost or refused and an
  /// operation that timed out (`warning`), the first call that succeeds after one of those
  /// (`notice`), and closing (`info`). Session identifiers appear escaped
  /// (`SessionID.escaped`), the server as ``PostgresLocation/description`` (no password). By
  /// default the records are discarded.
  public final class PostgresJournal: JournalBackend, @unchecked Sendable {
    /// Where the journal is.
    public let location: PostgresLocation
    /// The journal's schema version, after migrating.
    public let schemaVersion: Int
    /// The schema version this build writes.
    public static var latestSchemaVersion: Int { PostgresMigration.latestVersion }

    let options: Options
    let upcasting: Upcasting
    /// How the journal checks stored values and names the server in errors.
    let stored: StoredValues
    let client: PostgresClient
    let deadline: OperationDeadline
    /// Where the journal logs, as its opener asked; the pool logs there too.
    let logger: Logger
    private let runTask: Task<Void, Never>
    private let closed = NSLock()
    private var isClosed = false
    /// Whether the last call failed for want of the server (guarded by `closed`): the next one
    /// that succeeds logs that the server is back.
    private var lostServer = false

    /// The logger of a journal opened without one: it drops every record.
    public static let discardingLogger = Logger(
      label: "StackJournal", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Opens the journal at a URL such as `postgres://user:password@host:5432/database`.
    public convenience init(
      url: String, options: Options = .init(), logger: Logger = PostgresJournal.discardingLogger
    ) async throws {
      try await self.init(location: PostgresLocation(url: url), options: options, logger: logger)
    }

    /// Opens the journal at `location`: checks (and unless read-only, migrates) its schema, then
    /// starts the connection pool.
    ///
    /// Throws a `StorageError` naming the server: `StorageError.Code.connectionRefused`,
    /// `StorageError.Code.authenticationFailed`, `StorageError.Code.databaseNotFound`,
    /// `StorageError.Code.notStackJournal`, `StorageError.Code.newerSchema`,
    /// `StorageError.Code.checksumMismatch` or `StorageError.Code.olderSchema`.
    public init(
      location: PostgresLocation, options: Options = .init(),
      logger: Logger = PostgresJournal.discardingLogger
    ) async throws {
      self.location = location
      self.logger = logger
      self.stored = .server(location.description)
      self.options = options
      self.upcasting = Upcasting(
        currentVersion: options.payloadVersion, upcasters: options.upcasters)
      let deadline = OperationDeadline()
      self.deadline = deadline
      let migrate = options.migrate && !options.readOnly
      self.schemaVersion = try await Self.withConnection(
        location, options, deadline: deadline, logger: logger, doing: "opening the journal"
      ) { connection in
        try await PostgresSchemaMigrator.prepare(
          connection, location, migrate: migrate, writing: !options.readOnly, logger: logger)
      }
      var configuration = PostgresClient.Configuration(
        host: location.host, port: location.port, username: location.user,
        password: location.password, database: location.database,
        tls: location.requireTLS ? .require(.makeClientConfiguration()) : .disable)
      configuration.options.connectTimeout = options.connectTimeout
      configuration.options.maximumConnections = max(1, options.maximumConnections)
      configuration.options.additionalStartupParameters = Self.startupParameters(options)
      let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
      self.client = client
      self.runTask = Task { await client.run() }
      logger.info(
        "opened the journal",
        metadata: [
          "journal": "\(location.description)", "schema.version": "\(schemaVersion)",
          "read_only": "\(options.readOnly)",
        ])
    }

    deinit {
      runTask.cancel()
    }

    /// Closes the journal: calls made after this one fail with `StorageError.Code.closed`, and
    /// the pool closes its connections in the background. Closing again does nothing.
    public func close() {
      let wasClosed = closed.withLock {
        defer { isClosed = true }
        return isClosed
      }
      guard !wasClosed else { return }
      runTask.cancel()
      logger.info("closed the journal", metadata: ["journal": "\(location.description)"])
    }

    /// Runs `body` with a connection of its own, opened for it and closed after, waiting at most
    /// the connect and operation timeouts; failures become `StorageError`s naming the server.
    static func withConnection<T: Sendable>(
      _ location: PostgresLocation,
      _ options: Options,
      deadline: OperationDeadline = OperationDeadline(),
      logger: Logger = PostgresJournal.discardingLogger,
      doing activity: String,
      _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
      let configuration = connectionConfiguration(location, options)
      let outcome = await deadline.run(timeout: options.connectTimeout + options.operationTimeout) {
        let connection = try await PostgresConnection.connect(
          configuration: configuration, id: 0, logger: logger)
        do {
          let result = try await body(connection)
          try? await connection.close()
          return result
        } catch {
          try? await connection.close()
          throw error
        }
      }
      return try value(of: outcome, location, doing: activity) {
        "PostgreSQL at \(location.description) did not answer within "
          + "\(options.connectTimeout + options.operationTimeout) while \(activity). Check "
          + "that the server is up and reachable."
      }
    }

    static func startupParameters(_ options: Options) -> [(String, String)] {
      var parameters = [("application_name", "stackjournal")]
      if options.readOnly { parameters.append(("default_transaction_read_only", "on")) }
      return parameters
    }

    static func connectionConfiguration(_ location: PostgresLocation, _ options: Options)
      -> PostgresConnection.Configuration
    {
      var configuration = PostgresConnection.Configuration(
        host: location.host, port: location.port, username: location.user,
        password: location.password, database: location.database,
        tls: location.requireTLS ? .require(try! .init(configuration: .makeClientConfiguration()))
          : .disable)
      configuration.options.connectTimeout = TimeAmount.nanoseconds(
        Int64(options.connectTimeout.components.seconds) * 1_000_000_000)
      configuration.options.additionalStartupParameters = startupParameters(options)
      return configuration
    }

    /// Runs `body` with the pool, waiting at most the operation timeout, and turns failures into
    /// `StorageError`s that say what was being done.
    func run<T: Sendable>(
      _ activity: @autoclosure () -> String,
      _ body: sending @escaping (PostgresClient) async throws -> T
    ) async throws -> T {
      guard !closed.withLock({ isClosed }) else {
        throw StorageError(
          code: .closed,
          message: "The journal at \(location.description) is closed; open it again to use it.")
      }
      let client = self.client
      let outcome = await deadline.run(timeout: options.operationTimeout, { try await body(client) })
      do {
        let result = try value(of: outcome, doing: activity())
        noteServerAnswered()
        return result
      } catch let error as StorageError {
        noteFailure(error, doing: activity())
        throw error
      }
    }

    /// Logs a call that failed for want of the server: a lost or refused connection, no answer
    /// within the operation timeout. The first such failure is a `warning`; those after it,
    /// until a call succeeds again, are `debug`, so a server that is down does not flood the log.
    private func noteFailure(_ error: StorageError, doing activity: String) {
      let lost: String
      switch error.code {
      case .connectionLost: lost = "lost the connection to PostgreSQL"
      case .connectionRefused: lost = "PostgreSQL refused the connection"
      case .timedOut: lost = "PostgreSQL did not answer in time"
      default: return
      }
      let first = closed.withLock {
        defer { lostServer = true }
        return !lostServer
      }
      logger.log(
        level: first ? .warning : .debug, "\(lost)",
        metadata: [
          "journal": "\(location.description)", "activity": "\(StorageError.printable(activity))",
          "error.code": "\(error.code)",
        ])
    }

    /// Logs, once, that the server answers again after a call failed for want of it.
    private func noteServerAnswered() {
      let wasLost = closed.withLock {
        defer { lostServer = false }
        return lostServer
      }
      guard wasLost else { return }
      logger.notice("PostgreSQL answers again", metadata: ["journal": "\(location.description)"])
    }

    /// The value of work run under the deadline, or the `StorageError` for its failure or for no answer
    /// within the operation timeout (`nil`).
    private func value<T>(of outcome: Result<T, any Error>?, doing activity: String) throws -> T {
      try Self.value(of: outcome, location, doing: activity) {
        "PostgreSQL at \(location.description) gave no result within "
          + "\(options.operationTimeout) while \(activity); the server may be down or "
          + "restarting. If this was a write, whether it happened is unknown: read the "
          + "session's head before retrying."
      }
    }

    /// The value of work run under the deadline, or the `StorageError` for its failure, or, for no
    /// answer in time (`nil`), a `StorageError.Code.timedOut` error saying `timedOut`.
    private static func value<T>(
      of outcome: Result<T, any Error>?,
      _ location: PostgresLocation,
      doing activity: String,
      timedOut: () -> String
    ) throws -> T {
      switch outcome {
      case .success(let value)?:
        return value
      case .failure(let error)?:
        throw StorageError(postgres: error, location, doing: activity)
      case nil:
        throw StorageError(code: .timedOut, message: timedOut())
      }
    }

    /// The rows of one statement.
    func rows(_ activity: @autoclosure () -> String, _ query: PostgresQuery) async throws
      -> [PostgresRow]
    {
      try await run(activity()) { client in try await client.query(query).collect() }
    }

    /// The rows of one writing statement, once the server has committed it.
    ///
    /// The statement runs in a transaction of its own. A statement sent alone commits after its
    /// rows were written back, and a server that stops at that moment (an immediate shutdown, a
    /// terminated backend) still sends those rows before it closes the connection without
    /// committing; the answer to `COMMIT` comes only after the commit. A connection lost before
    /// that answer throws `StorageError.Code.connectionLost`: whether the write happened is
    /// unknown. Appends, the frequent write, instead call a procedure that commits before it
    /// answers (one round trip instead of three).
    func committedRows(_ activity: @autoclosure () -> String, _ query: PostgresQuery) async throws
      -> [PostgresRow]
    {
      let logger = self.logger
      return try await run(activity()) { client in
        try await client.withTransaction(logger: logger) { connection in
          try await connection.query(query, logger: logger).collect()
        }
      }
    }

    /// Runs `body` on one connection in a `REPEATABLE READ, READ ONLY` transaction: every
    /// statement sees the snapshot the first one took, whatever a writer commits meanwhile. The
    /// transaction is committed when `body` returns (it only read) and rolled back when it
    /// throws.
    func readConsistently<T: Sendable>(
      _ activity: @autoclosure () -> String,
      _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
      let logger = self.logger
      return try await run(activity()) { client in
        try await client.withConnection { connection in
          try await connection.query(
            "START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
          let result: T
          do {
            result = try await body(connection)
          } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
          }
          try await connection.query("COMMIT", logger: logger)
          return result
        }
      }
    }

    /// The names of the journal's tables and functions in its schema.
    var tables: PostgresTables { location.tables }
    /// The SQL of the `sessions` table, and the reads that start from a session's row.
    var sessionRows: PostgresSessionRows { PostgresSessionRows(tables: tables) }
    /// The SQL of the `journal` table.
    var entryRows: PostgresJournalRows { PostgresJournalRows(tables: tables) }
    /// The SQL of the `snapshots` table.
    var snapshotRows: PostgresSnapshotRows { PostgresSnapshotRows(tables: tables) }
    /// The SQL of the `stacks` and `stack_elements` tables.
    var stackRows: PostgresStackRows { PostgresStackRows(tables: tables) }

    func requireWritable(_ activity: @autoclosure () -> String) throws {
      guard options.readOnly else { return }
      throw StorageError(
        code: .readOnly,
        message: "Cannot write while \(activity()): the journal at \(location.description) was "
          + "opened read-only. Open it without `readOnly` to write.")
    }
  }
#endif
