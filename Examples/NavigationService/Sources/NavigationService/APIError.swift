import Foundation
import Hummingbird
import NIOHTTP1
import OpenAPIRuntime
import StackRestoration
import StackStorage

/// An error the API reports as `{"error": {"code": …, "message": …}}` with a 4xx or 5xx status.
///
/// Messages are the service's own words; what a client sent appears only as JSON-escaped text,
/// bounded, and the body is always `application/json`, never markup.
public struct APIError: Error, HTTPResponseError, Sendable {
  public var status: HTTPResponse.Status
  public var code: String
  public var message: String
  /// Seconds after which the request may be retried (`Retry-After`), for conflicts.
  public var retryAfter: Int?
  /// The `WWW-Authenticate` challenge of a 401.
  public var challenge: String?

  public init(_ status: HTTPResponse.Status, code: String, message: String, retryAfter: Int? = nil)
  {
    self.status = status
    self.code = code
    self.message = String(message.prefix(500))
    self.retryAfter = retryAfter
  }

  struct Body: Encodable {
    struct Detail: Encodable {
      var code: String
      var message: String
      var retryable: Bool
    }
    var error: Detail
  }

  /// The error as the JSON body of a response.
  func jsonBody() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(
      Body(error: .init(code: code, message: message, retryable: retryAfter != nil)))
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    let data = try jsonBody()
    var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
    if let retryAfter { headers[.retryAfter] = String(retryAfter) }
    if let challenge { headers[.wwwAuthenticate] = challenge }
    return Response(
      status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }

  /// The API error for an error thrown while serving a request.
  ///
  /// - Parameter bodyLimit: The body limit a 413 names.
  static func from(
    _ error: any Error, bodyLimit: Int = ServiceConfiguration.defaultBodyLimit
  ) -> APIError {
    switch error {
    case let error as APIError:
      return error
    case let error as ServerError:
      // The generated server wraps what an operation throws (see `GeneratedServerMiddleware`
      // for what it throws itself while decoding a request).
      return from(error.underlyingError, bodyLimit: bodyLimit)
    case let error as StorageError:
      switch error.code {
      case .unknownSession:
        return APIError(
          .notFound, code: "unknownSession", message: "No session has that identifier.")
      case .sessionExists:
        return APIError(
          .conflict, code: "sessionExists", message: "A session with that identifier exists.")
      case .invalidSessionID:
        return .invalidSessionID
      case .sequenceConflict:
        return APIError(
          .conflict, code: "sequenceConflict",
          message: "Another writer appended to this session first; send the action again.",
          retryAfter: 0)
      case .busy:
        return APIError(
          .serviceUnavailable, code: "busy", message: "The journal is busy; try again.",
          retryAfter: 1)
      case .sequenceOutOfRange:
        return .sequenceOutOfRange
      default:
        return APIError(.internalServerError, code: "internal", message: "The journal failed.")
      }
    case let error as RestorationError where error.code == .outOfRange:
      // The library's message names the session; the service's own words do not.
      return .sequenceOutOfRange
    case let error as HTTPParserError:
      if case .headerOverflow = error {
        return APIError(
          .requestHeaderFieldsTooLarge, code: "requestHeadTooLarge",
          message: "The request line and headers are larger than 80 KiB.")
      }
      return APIError(
        .badRequest, code: "malformedRequest", message: "The request is not valid HTTP/1.1.")
    case let error as HTTPError:
      switch error.status {
      case .notFound:
        return APIError(.notFound, code: "notFound", message: "No such endpoint.")
      case .contentTooLarge:
        return APIError(
          .contentTooLarge, code: "bodyTooLarge",
          message: "The request body is larger than \(bodyLimit) bytes.")
      default:
        return APIError(
          error.status, code: "http\(error.status.code)", message: error.status.reasonPhrase)
      }
    case let error as any HTTPResponseError where error.status == .contentTooLarge:
      return APIError(
        .contentTooLarge, code: "bodyTooLarge",
        message: "The request body is larger than \(bodyLimit) bytes.")
    case let error as any HTTPResponseError:
      return APIError(
        error.status, code: "http\(error.status.code)", message: error.status.reasonPhrase)
    default:
      return APIError(.internalServerError, code: "internal", message: "The request failed.")
    }
  }
}

extension APIError {
  /// A session identifier outside ``SessionIDRules``.
  static let invalidSessionID = APIError(
    .badRequest, code: "invalidSessionID", message: SessionIDRules.description)

  /// A body of `POST /sessions` that is not `{"id": …}`.
  static let badCreateRequest = APIError(
    .badRequest, code: "badRequest", message: "The body is not {\"id\": …}.")

  /// A body of a fork that is not `{"at": …}`, `{"time": …}`, with an optional `"into"`.
  static let badForkRequest = APIError(
    .badRequest, code: "badRequest",
    message: "The body is {\"at\": SEQUENCE} or {\"time\": ISO8601}, with an optional \"into\".")

  /// A body that is not an action, when no position can be told.
  static let undecodableAction = APIError(
    .badRequest, code: "undecodableAction", message: "The body is not JSON.")

  /// A sequence that is not a whole number, 0 or more.
  static let badSequence = APIError(
    .badRequest, code: "badSequence", message: "A sequence is a whole number, 0 or more.")

  /// A sequence past the head, or a time before the session began.
  static let sequenceOutOfRange = APIError(
    .unprocessableContent, code: "sequenceOutOfRange",
    message: "The session has no entry there: the sequence is past its head, or the time is "
      + "before it began.")
}

/// Turns every error, including the router's own 404 and 405, into an ``APIError`` body.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  /// The body limit a 413 names.
  let bodyLimit: Int

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch {
      let apiError = APIError.from(error, bodyLimit: bodyLimit)
      // A refusal is told by the request's one log line (its status and code: what the client
      // sent is not repeated); a failure of the service also gets its cause.
      if apiError.status.code >= 500 {
        // The generated server's wrapper would log the whole request, headers included.
        let cause = (error as? ServerError)?.underlyingError ?? error
        context.logger.error("request failed", metadata: ["error": "\(String(reflecting: cause))"])
      }
      throw apiError
    }
  }
}
