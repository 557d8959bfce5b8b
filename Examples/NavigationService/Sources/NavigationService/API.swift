import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import StackNavigation
import StackRestoration
import StackStorage

/// The service's operations, as the generated `APIProtocol` (in Generated/) names them: the
/// generated server decodes each request into an operation's input and encodes its output; what
/// happens in between is here.
///
/// A refusal is thrown as an ``APIError`` (or the journal's `StorageError`); the generated server
/// wraps it in its `ServerError`, which ``APIError/from(_:bodyLimit:)`` unwraps. Everything
/// around an operation (request IDs, the body limit, bearer tokens, the request's log line and
/// metrics, JSON errors) is the router's middleware (`buildRouter`).
struct NavigationAPIHandler: APIProtocol {
  let registry: SessionRegistry
  let readiness: Readiness

  private var journal: any JournalBackend { registry.journal }
  private var metrics: ServiceMetrics { registry.metrics }

  /// The logger of the request being served (with its request ID).
  private var logger: Logger { RequestScope.current?.logger ?? Logger(label: "navigation-service") }

  /// A replayer for history reads; cheap to make, one per request.
  private func replayer() -> Replayer<SignupWizard.State, SignupWizard.Action> {
    Replayer(journal: journal) { SignupWizard() }
  }

  func createSession(_ input: Operations.CreateSession.Input) async throws
    -> Operations.CreateSession.Output
  {
    var id = SessionID.random()
    if case .json(let create)? = input.body, let given = create.id {
      id = try SessionIDRules.newSession(given)
    }
    let (sequence, state) = try await registry.create(id, logger: logger) { store in
      (store.sequence, await store.state)
    }
    try await Ownership.claim(id, journal: journal)
    return .created(
      .init(
        body: .json(
          .init(session: id.rawValue, sequence: sequence, stack: .init(state)))))
  }

  func sendAction(_ input: Operations.SendAction.Input) async throws
    -> Operations.SendAction.Output
  {
    let id = try SessionIDRules.existing(input.path.id)
    try await Ownership.check(id, journal: journal)
    guard case .json(let object) = input.body else { throw APIError.undecodableAction }
    let action = try SignupWizard.Action.decoding(object)
    // The header as the client sent it: the generated input holds it URI-decoded.
    let key = try Idempotency.key(of: RequestScope.current?.headers ?? [:])
    let fingerprint = try key.map { _ in try Idempotency.fingerprint(action) }
    /// What the session's turn did: sent the action, or found it sent by an earlier try.
    enum Outcome: Sendable {
      case sent(sequence: Int64, state: SignupWizard.State)
      case replayed(sequence: Int64)
    }
    let journal = journal
    let metrics = metrics
    // Checked and sent in the session's turn, so the check sees the state the action meets.
    let (outcome, rehydrated) = try await registry.withSession(id, logger: logger) {
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
      return .ok(
        .init(
          body: .json(
            .init(
              session: id.rawValue, sequence: sequence, stack: .init(state),
              rehydrated: rehydrated))))
    case .replayed(let sequence):
      logger.info(
        "idempotent retry answered from the journal", metadata: ["sequence": "\(sequence)"])
      let restored = try await replayer().restore(session: id, at: .sequence(sequence))
      return .ok(
        .init(
          headers: .init(idempotentReplayed: ._true),
          body: .json(
            .init(
              session: id.rawValue, sequence: restored.sequence,
              stack: .init(restored.state), rehydrated: rehydrated))))
    }
  }

  func getStack(_ input: Operations.GetStack.Input) async throws -> Operations.GetStack.Output {
    let id = try SessionIDRules.existing(input.path.id)
    try await Ownership.check(id, journal: journal)
    if let at = input.query.at {
      guard at >= 0 else { throw APIError.badSequence }
      guard try await journal.session(id) != nil else {
        throw StorageError(code: .unknownSession, message: "")
      }
      let head = try await journal.headSequence(session: id)
      if at > head {
        throw APIError(
          .unprocessableContent, code: "sequenceOutOfRange",
          message: "The session's head is sequence \(head); \(at) is past it.")
      }
      let restored = try await replayer().restore(session: id, at: .sequence(at))
      return try stackResponse(id, restored.sequence, restored.state)
    }
    if let time = input.query.time {
      let date = try parseTime(time)
      guard try await journal.session(id) != nil else {
        throw StorageError(code: .unknownSession, message: "")
      }
      let restored = try await replayer().restore(session: id, at: .date(date))
      return try stackResponse(id, restored.sequence, restored.state)
    }
    // Another instance may have written since this one loaded the session: in the session's
    // turn, the journal's head (one cheap read) says so, and the session is reopened.
    let ((sequence, state), rehydrated) = try await registry.withSession(
      id, checkingHead: true, logger: logger
    ) {
      store in (store.sequence, await store.state)
    }
    return try stackResponse(id, sequence, state, rehydrated: rehydrated)
  }

  /// The `GET …/stack` answer: the session's stack at `sequence`; `rehydrated` only for the
  /// session's current state.
  private func stackResponse(
    _ id: SessionID, _ sequence: Int64, _ state: SignupWizard.State, rehydrated: Bool? = nil
  ) throws -> Operations.GetStack.Output {
    .ok(
      .init(
        body: .json(
          .init(
            session: id.rawValue, sequence: sequence, stack: .init(state),
            rehydrated: rehydrated))))
  }

  func forkSession(_ input: Operations.ForkSession.Input) async throws
    -> Operations.ForkSession.Output
  {
    let id = try SessionIDRules.existing(input.path.id)
    try await Ownership.check(id, journal: journal)
    let fork: Components.Schemas.ForkRequest
    if case .json(let body)? = input.body { fork = body } else { fork = .init() }
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
    return .created(
      .init(
        body: .json(
          .init(
            session: into.rawValue, sequence: store.sequence,
            stack: .init(await store.state), forkedFrom: id.rawValue,
            forkedAt: store.restoration?.sequence))))
  }

  func live(_ input: Operations.Live.Input) async throws -> Operations.Live.Output {
    .ok(.init(body: .json(.init(status: "live"))))
  }

  func ready(_ input: Operations.Ready.Input) async throws -> Operations.Ready.Output {
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
    return .ok(
      .init(
        body: .json(
          .init(
            status: "ready", cachedSessions: await registry.cachedCount,
            rehydrations: registry.rehydrations, evictions: registry.evictions))))
  }

  func metrics(_ input: Operations.Metrics.Input) async throws -> Operations.Metrics.Output {
    let text = metrics.exposition(liveSessions: await registry.cachedCount, journal: journal)
    return .ok(.init(body: .textPlainCharsetUtf8Version_0_0_4(HTTPBody(text))))
  }

  func openAPIDocument(_ input: Operations.OpenAPIDocument.Input) async throws
    -> Operations.OpenAPIDocument.Output
  {
    .ok(.init(body: .applicationYamlCharsetUtf8(HTTPBody(PackageResources.openapi_yaml))))
  }
}

extension Components.Schemas.Stack {
  /// The document's stack of a wizard: each step's ID, case and state, bottom first. Built from
  /// the typed state, so a new step is a compile error here until the document has it too.
  init(_ state: SignupWizard.State) {
    var ids: [Int] = []
    var cases: [CasesPayloadPayload] = []
    var states: [Components.Schemas.StepState] = []
    // In order, each ID with its element (a lookup by ID would search the stack for each).
    for (id, element) in zip(state.path.ids, state.path) {
      ids.append(id.generation)
      switch element {
      case .name(let step):
        cases.append(.name)
        states.append(.init(name: step.name))
      case .plan(let step):
        cases.append(.plan)
        states.append(.init(name: step.name, plan: step.plan))
      case .confirm(let step):
        cases.append(.confirm)
        states.append(.init(name: step.name, plan: step.plan))
      }
    }
    self.init(
      ids: ids, cases: cases, states: states, nextID: state.path.nextID.generation,
      submitted: state.submitted)
  }
}

extension SignupWizard.Action {
  /// The action a request's body holds: the document takes any one-key object, and the
  /// feature's `Codable` form decides (the message gives the position, keys only).
  static func decoding(_ object: Components.Schemas.Action) throws -> Self {
    let data: Data
    do {
      data = try JSONEncoder().encode(object)
    } catch {
      throw APIError.undecodableAction
    }
    return try decoding(data)
  }

  /// The action JSON `data` holds.
  static func decoding(_ data: Data) throws -> Self {
    do {
      return try JSONDecoder().decode(SignupWizard.Action.self, from: data)
    } catch let error as DecodingError {
      throw APIError(
        .badRequest, code: "undecodableAction",
        message: "The body is not an action of this feature (\(describe(error))).")
    } catch {
      throw APIError.undecodableAction
    }
  }
}
