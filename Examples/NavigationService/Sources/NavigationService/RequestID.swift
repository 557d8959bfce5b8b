import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The identifier of one request: the client's `X-Request-ID` when it is a plain token, or one the
/// service makes. It is returned in the response's `X-Request-ID` and carried by every log line
/// written for the request.
enum RequestID {
  /// The header that carries it, both ways.
  static let header = HTTPField.Name("X-Request-ID")!
  /// The longest identifier taken from a client.
  static let maximumLength = 128

  /// The client's identifier when it is 1 to 128 characters from `A-Z a-z 0-9 . _ : -`;
  /// anything else (markup, spaces, control codes, a longer value) is replaced, never repeated.
  static func accepting(_ value: String?) -> String? {
    guard let value, (1...maximumLength).contains(value.utf8.count),
      value.utf8.allSatisfy(isAllowed)
    else { return nil }
    return value
  }

  /// A new identifier: a random UUID, lower case.
  static func make() -> String { UUID().uuidString.lowercased() }

  private static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: ":"), UInt8(ascii: "-"):
      return true
    default:
      return false
    }
  }

  /// The metadata key of the request's identifier in log lines: Hummingbird's own, so that its
  /// lines and the service's carry the same identifier.
  static let metadataKey = "hb.request.id"
}

/// Gives each request its ``RequestID``: puts it in the request's logger, answers with it in
/// `X-Request-ID` (errors included), writes one log line per request with its route, status,
/// error code and duration, and records the request in the metrics.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
  let metrics: ServiceMetrics

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let id = RequestID.accepting(request.headers[RequestID.header]) ?? RequestID.make()
    var context = context
    context.logger[metadataKey: RequestID.metadataKey] = .string(id)
    let started = ContinuousClock.now
    var response: Response
    var code: String?
    do {
      response = try await next(request, context)
    } catch {
      let apiError = APIError.from(error)
      code = apiError.code
      response = try apiError.response(from: request, context: context)
    }
    response.headers[RequestID.header] = id
    let elapsed = ContinuousClock.now - started
    var metadata: Logger.Metadata = [
      "method": "\(request.method.rawValue)",
      // The route's pattern, not the client's path: bounded, and free of what the client typed.
      "route": "\(context.endpointPath ?? "unmatched")",
      "status": "\(response.status.code)",
      "ms": "\(elapsed.milliseconds)",
    ]
    if let code { metadata["code"] = "\(code)" }
    metrics.recordRequest(
      method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
      status: response.status.code, duration: elapsed)
    if code == "sequenceConflict" { metrics.recordConflict() }
    context.logger.log(
      level: response.status.code >= 500 ? .error : .info, "request", metadata: metadata)
    return response
  }
}

extension Duration {
  /// The duration in milliseconds, with three decimals.
  var milliseconds: Double {
    let (seconds, attoseconds) = components
    return ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 1000).rounded() / 1000
  }
}
