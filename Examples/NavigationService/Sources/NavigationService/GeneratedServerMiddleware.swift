import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime
import StackStorage

/// What an operation reads of its request beyond the generated input.
struct RequestScope: Sendable {
  /// The request being served; set by ``GeneratedServerMiddleware``.
  @TaskLocal static var current: RequestScope?

  /// The request's logger, with its request ID.
  var logger: Logger
  /// The headers as the client sent them (the generated input holds them URI-decoded).
  var headers: HTTPFields
}

/// The last middleware before the generated server (`registerHandlers`): it hands that server
/// the request in the form the service has always read it, and answers a request the server
/// cannot decode with the service's own error.
///
/// * A POST body is read here, at most `bodyLimit` bytes (more is a 413 `bodyTooLarge`): the
///   runtime would read it with no limit. It is read as JSON whatever its `Content-Type` says
///   (`curl -d` sends a form's), and an empty body stands for `{}` (no `"id"`, no `"at"`).
/// * Every response has one representation, sent whatever `Accept` asks, so `Accept` is not
///   passed on: the runtime would refuse the request, after the operation had run. A `+` in
///   the query stays a plus.
/// * The request's logger and headers are put in ``RequestScope`` for the operation.
/// * When the server cannot decode the request into the operation's input (its `ServerError`
///   has no input), the service's own checks of what the client sent, in their order, say
///   what is wrong: `invalidSessionID`, `undecodableAction`, `badSequence`, `badTime`,
///   `badRequest`, … — the same answers as before the server was generated.
struct GeneratedServerMiddleware<Context: RequestContext>: RouterMiddleware {
  let bodyLimit: Int
  let journal: any JournalBackend

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var head = request.head
    var requestBody = request.body
    var body = Data()
    if request.method == .post {
      let buffer = try await request.body.collect(upTo: bodyLimit)
      body = Data(buffer.readableBytesView)
      let given = buffer.readableBytes == 0 ? ByteBuffer(string: "{}") : buffer
      requestBody = RequestBody(buffer: given)
      head.headerFields[.contentLength] = String(given.readableBytes)
      head.headerFields[.transferEncoding] = nil
      head.headerFields[.contentType] = "application/json"
    }
    head.headerFields[.accept] = nil
    // A `+` in the query is a plus, as the service has always read it (`?time=…+01:00`); the
    // runtime would read a space.
    if let path = head.path, let question = path.firstIndex(of: "?"), path[question...].contains("+")
    {
      head.path = path[..<question] + path[question...].replacingOccurrences(of: "+", with: "%2B")
    }
    // The request's identifier as `RequestIDMiddleware` chose it, not the client's raw value.
    if case .string(let id)? = context.logger[metadataKey: RequestID.metadataKey] {
      head.headerFields[RequestID.header] = id
    }
    let scope = RequestScope(logger: context.logger, headers: request.headers)
    do {
      return try await RequestScope.$current.withValue(scope) {
        try await next(Request(head: head, body: requestBody), context)
      }
    } catch let error as ServerError where error.operationInput == nil {
      throw await InputRefusal.error(
        operation: error.operationID, sessionID: context.parameters.get("id"),
        query: (at: request.uri.queryParameters.get("at"), time: request.uri.queryParameters.get("time")),
        headers: request.headers, body: body, journal: journal)
    }
  }
}

/// Why a request the generated server could not decode is refused, in the service's words.
enum InputRefusal {
  /// The error for a request of `operation` whose input did not decode: the service's checks
  /// of the raw request, in the order its operations make them; a 400 `badRequest` when they
  /// find nothing (the request is outside the document in a way the service does not check).
  static func error(
    operation: String, sessionID: String?, query: (at: String?, time: String?),
    headers: HTTPFields, body: Data,
    journal: any JournalBackend
  ) async -> any Error {
    do {
      switch operation {
      case Operations.CreateSession.id:
        throw APIError.badCreateRequest
      case Operations.SendAction.id:
        try await checkSession(sessionID, journal: journal)
        _ = try SignupWizard.Action.decoding(body)
        _ = try Idempotency.key(of: headers)
      case Operations.GetStack.id:
        try await checkSession(sessionID, journal: journal)
        if let at = query.at {
          _ = try parseSequence(at)
        } else if let time = query.time {
          _ = try parseTime(time)
        }
      case Operations.ForkSession.id:
        try await checkSession(sessionID, journal: journal)
        throw APIError.badForkRequest
      default:
        break
      }
      return APIError(
        .badRequest, code: "badRequest",
        message: "The request does not fit the API's document (GET /openapi.yaml).")
    } catch {
      return error
    }
  }

  /// The checks of the session a request names, made before its body is read.
  private static func checkSession(_ raw: String?, journal: any JournalBackend) async throws {
    guard let raw else { return }
    let id = try SessionIDRules.existing(raw.removingPercentEncoding ?? raw)
    try await Ownership.check(id, journal: journal)
  }
}
