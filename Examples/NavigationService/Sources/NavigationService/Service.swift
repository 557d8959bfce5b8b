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
  /// The largest request body accepted; a larger one gets 413.
  public static let maximumBodySize = 64 * 1024

  public var databasePath: String
  public var host: String
  public var port: Int
  /// How long a session stays in memory without requests.
  public var idleTimeout: Duration
  /// How often idle sessions are looked for.
  public var sweepInterval: Duration

  public init(
    databasePath: String, host: String = "127.0.0.1", port: Int = 8080,
    idleTimeout: Duration = .seconds(300), sweepInterval: Duration? = nil
  ) {
    self.databasePath = databasePath
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

struct CreateRequest: Decodable {
  var id: String?
}

struct ForkRequest: Decodable {
  var at: Int64?
  var time: String?
  var into: String?
}

struct SessionCreated: Encodable {
  var session: String
  var sequence: Int64
  var stack: StackView
  var forkedFrom: String?
  var forkedAt: Int64?
}

struct Health: Encodable {
  var status: String
  var cachedSessions: Int?
  var rehydrations: Int?
  var evictions: Int?
}

/// Encodes a value as a JSON response.
func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  let data = try encoder.encode(value)
  return Response(
    status: status, headers: [.contentType: "application/json; charset=utf-8"],
    body: .init(byteBuffer: ByteBuffer(bytes: data)))
}

/// Reads the body (at most ``ServiceConfiguration/maximumBodySize`` bytes).
func body(of request: Request) async throws -> Data {
  let buffer = try await request.body.collect(upTo: ServiceConfiguration.maximumBodySize)
  return Data(buffer.readableBytesView)
}

/// The session identifier of a path, validated.
func sessionID(_ context: some RequestContext) throws -> SessionID {
  let raw = try context.parameters.require("id")
  let id = SessionID(raw.removingPercentEncoding ?? raw)
  if id.problem != nil {
    throw APIError(
      .badRequest, code: "invalidSessionID",
      message: "A session identifier is 1 to \(SessionID.maximumLength) printable characters.")
  }
  return id
}

/// A sequence number from a query or body: 0 or more.
func parseSequence(_ text: String) throws -> Int64 {
  guard text.count <= 20, let value = Int64(text), value >= 0 else {
    throw APIError(
      .badRequest, code: "badSequence", message: "A sequence is a whole number, 0 or more.")
  }
  return value
}

/// A moment from a query or body, ISO 8601 with or without fractional seconds.
func parseTime(_ text: String) throws -> Date {
  let plain = ISO8601DateFormatter()
  let fractional = ISO8601DateFormatter()
  fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  guard text.count <= 40, let date = fractional.date(from: text) ?? plain.date(from: text) else {
    throw APIError(
      .badRequest, code: "badTime",
      message: "A time is ISO 8601, such as 2026-01-02T03:04:05Z.")
  }
  return date
}

/// The position of a decoding failure, for an error message (keys only, bounded).
func describe(_ error: DecodingError) -> String {
  let path: [any CodingKey]
  switch error {
  case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
    .valueNotFound(_, let context):
    path = context.codingPath
  @unknown default:
    path = []
  }
  // Keys come from the client: only plain identifiers are repeated, anything else is `?`.
  let text = path.map { key -> String in
    if let index = key.intValue { return String(index) }
    let plain =
      key.stringValue.count <= 40
      && key.stringValue.unicodeScalars.allSatisfy {
        $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
      }
    return plain ? key.stringValue : "?"
  }.joined(separator: ".")
  return text.isEmpty ? "at the top level" : "at \(String(text.prefix(120)))"
}

/// Builds the router of the service over a registry.
public func buildRouter(registry: SessionRegistry) -> Router<BasicRequestContext> {
  let router = Router()
  router.add(middleware: JSONErrorMiddleware())
  let journal = registry.journal
  // A replayer is cheap to make; one per request keeps the closures free of shared state.
  @Sendable func replayer() -> Replayer<SignupWizard.State, SignupWizard.Action> {
    Replayer(journal: journal) { SignupWizard() }
  }

  router.get("/health/live") { _, _ in try json(Health(status: "live")) }
  router.get("/health/ready") { _, _ in
    do {
      _ = try journal.session(SessionID("health-probe"))
    } catch {
      throw APIError(.serviceUnavailable, code: "notReady", message: "The journal cannot be read.")
    }
    return try json(
      Health(
        status: "ready", cachedSessions: await registry.cachedCount,
        rehydrations: await registry.rehydrations, evictions: await registry.evictions))
  }

  router.post("/sessions") { request, _ in
    let data = try await body(of: request)
    var id = SessionID.random()
    if !data.isEmpty {
      let create: CreateRequest
      do {
        create = try JSONDecoder().decode(CreateRequest.self, from: data)
      } catch {
        throw APIError(.badRequest, code: "badRequest", message: "The body is not {\"id\": …}.")
      }
      if let given = create.id {
        id = SessionID(given)
        if id.problem != nil {
          throw APIError(
            .badRequest, code: "invalidSessionID",
            message: "A session identifier is 1 to \(SessionID.maximumLength) printable characters."
          )
        }
      }
    }
    let handle = try await registry.create(id)
    let (sequence, state) = try await handle.perform { store in (store.sequence, await store.state)
    }
    return try json(
      SessionCreated(session: id.rawValue, sequence: sequence, stack: try StackView(state)),
      status: .created)
  }

  router.post("/sessions/:id/actions") { request, context in
    let id = try sessionID(context)
    let data = try await body(of: request)
    let action: SignupWizard.Action
    do {
      action = try JSONDecoder().decode(SignupWizard.Action.self, from: data)
    } catch let error as DecodingError {
      throw APIError(
        .badRequest, code: "undecodableAction",
        message: "The body is not an action of this feature (\(describe(error))).")
    } catch {
      throw APIError(.badRequest, code: "undecodableAction", message: "The body is not JSON.")
    }
    let (handle, rehydrated) = try await registry.handle(id)
    do {
      let (sequence, state) = try await handle.perform { store in
        try await store.send(action)
        return (store.sequence, await store.state)
      }
      return try json(
        StackResponse(
          session: id.rawValue, sequence: sequence, stack: try StackView(state),
          rehydrated: rehydrated))
    } catch let error as StorageError where error.code == .sequenceConflict {
      // The store in memory is behind the journal: the next request reopens it.
      await registry.forget(id)
      throw error
    }
  }

  router.get("/sessions/:id/stack") { request, context in
    let id = try sessionID(context)
    let query = request.uri.queryParameters
    if let at = query.get("at") {
      let sequence = try parseSequence(at)
      guard try journal.session(id) != nil else {
        throw StorageError(code: .unknownSession, message: "")
      }
      let restored = try replayer().restore(session: id, at: .sequence(sequence))
      return try json(
        StackResponse(
          session: id.rawValue, sequence: restored.sequence, stack: try StackView(restored.state)))
    }
    if let time = query.get("time") {
      let date = try parseTime(time)
      guard try journal.session(id) != nil else {
        throw StorageError(code: .unknownSession, message: "")
      }
      let restored = try replayer().restore(session: id, at: .date(date))
      return try json(
        StackResponse(
          session: id.rawValue, sequence: restored.sequence, stack: try StackView(restored.state)))
    }
    var (handle, rehydrated) = try await registry.handle(id)
    var (sequence, state) = try await handle.perform { store in
      (store.sequence, await store.state)
    }
    // Another instance may have written since this one loaded the session: the journal's head
    // (one cheap read) says so, and the session is reopened from the journal.
    if try journal.headSequence(session: id) != sequence {
      await registry.forget(id)
      (handle, rehydrated) = try await registry.handle(id)
      (sequence, state) = try await handle.perform { store in
        (store.sequence, await store.state)
      }
    }
    return try json(
      StackResponse(
        session: id.rawValue, sequence: sequence, stack: try StackView(state),
        rehydrated: rehydrated))
  }

  router.post("/sessions/:id/fork") { request, context in
    let id = try sessionID(context)
    let data = try await body(of: request)
    let fork: ForkRequest
    do {
      fork = try JSONDecoder().decode(ForkRequest.self, from: data.isEmpty ? Data("{}".utf8) : data)
    } catch {
      throw APIError(
        .badRequest, code: "badRequest",
        message: "The body is {\"at\": SEQUENCE} or {\"time\": ISO8601}, with an optional \"into\"."
      )
    }
    if let at = fork.at, at < 0 {
      throw APIError(.badRequest, code: "badSequence", message: "A sequence is 0 or more.")
    }
    let target: RestoreTarget =
      if let at = fork.at { .sequence(at) } else if let time = fork.time {
        .date(try parseTime(time))
      } else { .head }
    let into = fork.into.map { SessionID($0) } ?? SessionID.random()
    if into.problem != nil {
      throw APIError(
        .badRequest, code: "invalidSessionID",
        message: "A session identifier is 1 to \(SessionID.maximumLength) printable characters.")
    }
    guard try journal.session(id) != nil else {
      throw StorageError(code: .unknownSession, message: "")
    }
    if try journal.session(into) != nil {
      throw StorageError(code: .sessionExists, message: "")
    }
    let store = try RecordingStore.fork(id, at: target, into: into, journal: journal) {
      SignupWizard()
    }
    let forkedAt = store.restoration?.sequence
    return try json(
      SessionCreated(
        session: into.rawValue, sequence: store.sequence, stack: try StackView(await store.state),
        forkedFrom: id.rawValue, forkedAt: forkedAt),
      status: .created)
  }
  return router
}

/// The journal `--db` names: a postgres:// URL (when built with `--traits PostgreSQL`) or the
/// path of an SQLite file.
func openJournal(_ database: String) throws -> any JournalBackend {
  let isURL = database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")
  #if PostgreSQL
    if isURL { return try PostgresJournal(url: database) }
  #else
    if isURL { throw NoPostgreSQLSupport() }
  #endif
  return try SQLiteJournal(path: database)
}

/// `--db postgres://…` given to a build without the `PostgreSQL` trait.
struct NoPostgreSQLSupport: Error, CustomStringConvertible {
  var description: String {
    "this build has no PostgreSQL support: build it with `swift build --traits PostgreSQL` to "
      + "use a postgres:// journal, or give the path of an SQLite file"
  }
}

/// Runs the service until SIGTERM or SIGINT: in-flight requests finish, then the sessions are
/// released and the journal is closed.
public func runService(_ configuration: ServiceConfiguration, logger: Logger) async throws {
  let journal = try openJournal(configuration.databasePath)
  let registry = SessionRegistry(journal: journal, idleTimeout: configuration.idleTimeout)
  let app = Application(
    router: buildRouter(registry: registry),
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
  try await app.runService()
  await registry.removeAll()
  // Waits for any call still using the journal, then releases its file or connections.
  try journal.close()
  logger.info("stopped; journal closed")
}
