import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import StackNavigation
import StackRestoration
import StackStorage

#if PostgreSQL
  import StackStoragePostgres
#endif

/// How the service is started.
public struct ServiceConfiguration: Sendable {
  /// The largest request body accepted unless configured otherwise: 64 KiB.
  public static let defaultBodyLimit = 64 * 1024

  public var databasePath: String
  public var host: String
  public var port: Int
  /// How long a session stays in memory without requests.
  public var idleTimeout: Duration
  /// How often idle sessions are looked for.
  public var sweepInterval: Duration
  /// How an SQLite journal keeps appends (a PostgreSQL journal commits each one): group commit
  /// by default, which flushes concurrent sessions' appends together and, like `full`, answers
  /// only once an append is on the disk.
  public var durability: Durability
  /// After SIGTERM, how long the service keeps serving with readiness off before it stops
  /// accepting connections.
  public var drainDelay: Duration
  /// The largest request body accepted; a larger one gets 413.
  public var bodyLimit: Int
  /// The bearer tokens, or `nil`: no authentication (the default).
  public var tokens: BearerTokens?

  public init(
    databasePath: String, host: String = "127.0.0.1", port: Int = 8080,
    idleTimeout: Duration = .seconds(300), sweepInterval: Duration? = nil,
    durability: Durability = .groupCommit(), drainDelay: Duration = .zero,
    bodyLimit: Int = ServiceConfiguration.defaultBodyLimit, tokens: BearerTokens? = nil
  ) {
    self.tokens = tokens
    self.bodyLimit = bodyLimit
    self.drainDelay = drainDelay
    self.databasePath = databasePath
    self.durability = durability
    self.host = host
    self.port = port
    self.idleTimeout = idleTimeout
    self.sweepInterval = sweepInterval ?? min(idleTimeout, .seconds(30))
  }
}

/// Drops idle sessions from memory now and then, until the service shuts down.
struct IdleSweeper: Service {
  let registry: SessionRegistry
  let interval: Duration

  func run() async throws {
    await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        await registry.evictIdle()
      }
    }
  }
}


/// The journal `--db` names: a postgres:// URL (when built with `--traits PostgreSQL`) or the
/// path of an SQLite file. The journal logs to `logger` (opening, migrations, conflicts, a lost
/// server, closing); by default it logs nothing.
public func openJournal(
  _ database: String, durability: Durability = .groupCommit(),
  logger: Logger = SQLiteJournal.discardingLogger
) async throws -> any JournalBackend {
  let isURL = database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")
  #if PostgreSQL
    if isURL { return try await PostgresJournal(url: database, logger: logger) }
  #else
    if isURL { throw NoPostgreSQLSupport() }
  #endif
  return try SQLiteJournal(path: database, options: .init(durability: durability, logger: logger))
}

/// `--db postgres://…` given to a build without the `PostgreSQL` trait.
struct NoPostgreSQLSupport: Error, CustomStringConvertible {
  var description: String {
    "this build has no PostgreSQL support: build it with `swift build --traits PostgreSQL` to "
      + "use a postgres:// journal, or give the path of an SQLite file"
  }
}

/// Runs the service until SIGTERM or SIGINT, in one `ServiceGroup`: on the signal, readiness
/// turns off first (`ReadinessGate`, for `drainDelay`), then the server stops accepting and lets
/// in-flight requests finish, then the sessions are released and the journal is closed.
public func runService(_ configuration: ServiceConfiguration, logger: Logger) async throws {
  let journal = try await openJournal(
    configuration.databasePath, durability: configuration.durability, logger: logger)
  let registry = SessionRegistry(journal: journal, idleTimeout: configuration.idleTimeout)
  let readiness = Readiness()
  let app = Application(
    router: try buildRouter(
      registry: registry, readiness: readiness, bodyLimit: configuration.bodyLimit,
      tokens: configuration.tokens),
    // A request the HTTP parser rejects gets a JSON error too (see `ParseErrorResponder`).
    server: .http1(configuration: .init(additionalChannelHandlers: [ParseErrorResponder()])),
    configuration: .init(
      address: .hostname(configuration.host, port: configuration.port),
      serverName: "navigation-service"),
    services: [IdleSweeper(registry: registry, interval: configuration.sweepInterval)],
    onServerRunning: { channel in
      // One line a parent process can wait for, with the port actually bound (for `--port 0`).
      let port = channel.localAddress?.port ?? configuration.port
      FileHandle.standardOutput.write(Data("listening on \(configuration.host):\(port)\n".utf8))
    },
    logger: logger)
  // Shut down in reverse order: the gate first, then the application (its server, then the
  // sweeper), each once the one before has returned.
  let group = ServiceGroup(
    configuration: .init(
      services: [
        .init(service: app),
        .init(
          service: ReadinessGate(
            readiness: readiness, drainDelay: configuration.drainDelay, logger: logger)),
      ],
      gracefulShutdownSignals: [.sigterm, .sigint],
      logger: logger))
  try await group.run()
  await registry.removeAll()
  // Waits for any call still using the journal, then releases its file or connections.
  try await journal.close()
  logger.info("stopped; journal closed")
}
