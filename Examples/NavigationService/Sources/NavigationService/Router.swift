import Foundation
import Hummingbird
import Logging
import StackNavigation
import StackRestoration
import StackStorage

/// Builds the router of the service over a registry.
///
/// - Parameter readiness: Off once the service is shutting down: `GET /health/ready` then
///   answers 503 `draining`.
/// - Parameter bodyLimit: The largest request body read; a larger one gets 413 `bodyTooLarge`.
public func buildRouter(
  registry: SessionRegistry, readiness: Readiness = Readiness(),
  bodyLimit: Int = ServiceConfiguration.defaultBodyLimit, tokens: BearerTokens? = nil
) -> Router<BasicRequestContext> {
  let router = Router()
  let metrics = registry.metrics
  router.add(middleware: RequestIDMiddleware(metrics: metrics))
  router.add(middleware: JSONErrorMiddleware(bodyLimit: bodyLimit))
  if let tokens { router.add(middleware: BearerAuthMiddleware(tokens: tokens)) }
  @Sendable func body(of request: Request) async throws -> Data {
    try await NavigationService.body(of: request, limit: bodyLimit)
  }
  let journal = registry.journal
  // A replayer is cheap to make; one per request keeps the closures free of shared state.
  @Sendable func replayer() -> Replayer<SignupWizard.State, SignupWizard.Action> {
    Replayer(journal: journal) { SignupWizard() }
  }

  router.get("/health/live") { _, _ in try json(Health(status: "live")) }
  router.get("/health/ready") { _, _ in
    guard readiness.isReady else {
      throw APIError(
        .serviceUnavailable, code: "draining",
        message: "The service is shutting down; send new requests elsewhere.")
    }
    do {
      _ = try await journal.session(SessionID("health-probe"))
    } catch {
      throw APIError(.serviceUnavailable, code: "notReady", message: "The journal cannot be read.")
    }
    return try json(
      Health(
        status: "ready", cachedSessions: await registry.cachedCount,
        rehydrations: registry.rehydrations, evictions: registry.evictions))
  }

  router.get("/metrics") { _, _ in
    let text = metrics.exposition(liveSessions: await registry.cachedCount, journal: journal)
    return Response(
      status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(bytes: text)))
  }

  router.get("/openapi.yaml") { _, _ in
    Response(
      status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml)))
  }

  router.post("/sessions") { request, context in
    let data = try await body(of: request)
    var id = SessionID.random()
    if !data.isEmpty {
      let create: CreateRequest
      do {
        create = try JSONDecoder().decode(CreateRequest.self, from: data)
      } catch {
        throw APIError(.badRequest, code: "badRequest", message: "The body is not {\"id\": …}.")
      }
      if let given = create.id { id = try SessionIDRules.newSession(given) }
    }
    let (sequence, state) = try await registry.create(id, logger: context.logger) { store in
      (store.sequence, await store.state)
    }
    try await Ownership.claim(id, journal: journal)
    return try json(
      SessionCreated(session: id.rawValue, sequence: sequence, stack: try StackView(state)),
      status: .created)
  }

  router.post("/sessions/:id/actions") { request, context in
    let id = try sessionID(context)
    try await Ownership.check(id, journal: journal)
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
    let key = try Idempotency.key(of: request.headers)
    let fingerprint = try key.map { _ in try Idempotency.fingerprint(action) }
    /// What the session's turn did: sent the action, or found it sent by an earlier try.
    enum Outcome: Sendable {
      case sent(sequence: Int64, state: SignupWizard.State)
      case replayed(sequence: Int64)
    }
    // Checked and sent in the session's turn, so the check sees the state the action meets.
    let (outcome, rehydrated) = try await registry.withSession(id, logger: context.logger) {
      store -> Outcome in
      var metadata: SessionMetadata?
      if let key, let fingerprint {
        metadata = try await SessionMetadata(try journal.session(id)?.metadata)
        if let prior = metadata?.record(for: key) {
          guard prior.fingerprint == fingerprint else {
            throw APIError(
              .unprocessableContent, code: "idempotencyKeyReused",
              message: "This Idempotency-Key came with another action; use a new key.")
          }
          // The journal says whether the earlier try appended; if not, the action goes now.
          if try await Idempotency.journal(journal, session: id, holds: action, at: prior.sequence) {
            return .replayed(sequence: prior.sequence)
          }
        }
      }
      if let refusal = action.refusal(in: await store.state) {
        // A store behind the journal may not know an element another process pushed: then the
        // client gets the 409 of that other write (the retry reopens the store), not a refusal.
        if try await journal.headSequence(session: id) != store.sequence {
          throw StorageError(code: .sequenceConflict, message: "The store is behind the journal.")
        }
        throw refusal
      }
      if var metadata, let key, let fingerprint {
        // Written before the append: if the process dies after the append, a retry finds the
        // action at this sequence and answers with it.
        metadata.remember(.init(key: key, sequence: store.sequence + 1, fingerprint: fingerprint))
        try await journal.setMetadata(try metadata.encoded(), session: id)
      }
      let started = ContinuousClock.now
      try await store.send(action)
      metrics.recordAppend(ContinuousClock.now - started)
      return .sent(sequence: store.sequence, state: await store.state)
    }
    switch outcome {
    case .sent(let sequence, let state):
      return try json(
        StackResponse(
          session: id.rawValue, sequence: sequence, stack: try StackView(state),
          rehydrated: rehydrated))
    case .replayed(let sequence):
      context.logger.info(
        "idempotent retry answered from the journal", metadata: ["sequence": "\(sequence)"])
      let restored = try await replayer().restore(session: id, at: .sequence(sequence))
      var response = try json(
        StackResponse(
          session: id.rawValue, sequence: restored.sequence, stack: try StackView(restored.state),
          rehydrated: rehydrated))
      response.headers[Idempotency.replayedHeader] = "true"
      return response
    }
  }

  router.get("/sessions/:id/stack") { request, context in
    let id = try sessionID(context)
    try await Ownership.check(id, journal: journal)
    let query = request.uri.queryParameters
    if let at = query.get("at") {
      let sequence = try parseSequence(at)
      guard try await journal.session(id) != nil else {
        throw StorageError(code: .unknownSession, message: "")
      }
      let head = try await journal.headSequence(session: id)
      if sequence > head {
        throw APIError(
          .unprocessableContent, code: "sequenceOutOfRange",
          message: "The session's head is sequence \(head); \(sequence) is past it.")
      }
      let restored = try await replayer().restore(session: id, at: .sequence(sequence))
      return try json(
        StackResponse(
          session: id.rawValue, sequence: restored.sequence, stack: try StackView(restored.state)))
    }
    if let time = query.get("time") {
      let date = try parseTime(time)
      guard try await journal.session(id) != nil else {
        throw StorageError(code: .unknownSession, message: "")
      }
      let restored = try await replayer().restore(session: id, at: .date(date))
      return try json(
        StackResponse(
          session: id.rawValue, sequence: restored.sequence, stack: try StackView(restored.state)))
    }
    // Another instance may have written since this one loaded the session: in the session's
    // turn, the journal's head (one cheap read) says so, and the session is reopened.
    let ((sequence, state), rehydrated) = try await registry.withSession(
      id, checkingHead: true, logger: context.logger
    ) {
      store in (store.sequence, await store.state)
    }
    return try json(
      StackResponse(
        session: id.rawValue, sequence: sequence, stack: try StackView(state),
        rehydrated: rehydrated))
  }

  router.post("/sessions/:id/fork") { request, context in
    let id = try sessionID(context)
    try await Ownership.check(id, journal: journal)
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
    let into = try fork.into.map(SessionIDRules.newSession) ?? SessionID.random()
    guard try await journal.session(id) != nil else {
      throw StorageError(code: .unknownSession, message: "")
    }
    if try await journal.session(into) != nil {
      throw StorageError(code: .sessionExists, message: "")
    }
    let store = try await RecordingStore.fork(id, at: target, into: into, journal: journal) {
      SignupWizard()
    }
    try await Ownership.claim(into, journal: journal)
    let forkedAt = store.restoration?.sequence
    return try json(
      SessionCreated(
        session: into.rawValue, sequence: store.sequence, stack: try StackView(await store.state),
        forkedFrom: id.rawValue, forkedAt: forkedAt),
      status: .created)
  }
  return router
}
