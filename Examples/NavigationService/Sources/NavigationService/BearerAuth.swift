import Foundation
import HTTPTypes
import Hummingbird
import StackStorage

/// The bearer tokens of the service and whom each belongs to; off (no tokens) by default.
///
/// With tokens, every request under `/sessions` needs `Authorization: Bearer TOKEN` with a
/// known token (else 401 `unauthorized`), a session is created or forked with its caller as
/// owner (in the session's metadata), and a request on a session another owner holds is a 403
/// `forbidden`. The health and metrics endpoints stay open.
public struct BearerTokens: Sendable {
  /// Owner by token.
  let owners: [String: String]

  /// Tokens read from a file: one `TOKEN OWNER` a line; blank lines and `#` comments skipped. A
  /// token is 16 to 256 characters from `A-Z a-z 0-9 . _ ~ + / = -`; an owner follows the
  /// session-identifier rules. Throws ``SettingsError`` naming the line, never its text.
  public init(file: String, source: String) throws(SettingsError) {
    guard let data = FileManager.default.contents(atPath: file), data.count <= 1 << 20 else {
      throw SettingsError(
        description: "\(source) names no readable file of at most 1 MiB")
    }
    var owners: [String: String] = [:]
    for (number, line) in String(decoding: data, as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if fields.isEmpty || fields[0].hasPrefix("#") { continue }
      guard fields.count == 2, Self.isToken(fields[0]),
        SessionIDRules.allows(String(fields[1]))
      else {
        throw SettingsError(
          description: "\(source) line \(number + 1) is not `TOKEN OWNER` (a token is 16 to 256 "
            + "characters from A-Z a-z 0-9 . _ ~ + / = -; an owner 1 to 64 from A-Z a-z 0-9 . _ -)")
      }
      owners[String(fields[0])] = String(fields[1])
    }
    guard !owners.isEmpty else { throw SettingsError(description: "\(source) holds no token") }
    self.owners = owners
  }

  private static func isToken(_ text: Substring) -> Bool {
    (16...256).contains(text.utf8.count)
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
          UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="),
          UInt8(ascii: "-"):
          return true
        default: return false
        }
      }
  }

  /// The owner of the token an `Authorization` header carries; every token is compared in
  /// full, so the time taken does not tell how much of a token matched.
  func owner(authorization: String?) -> String? {
    guard let authorization, authorization.utf8.count <= 300,
      authorization.lowercased().hasPrefix("bearer ")
    else { return nil }
    let given = Array(authorization.utf8.dropFirst(7))
    var found: String?
    for (token, owner) in owners {
      let bytes = Array(token.utf8)
      var difference = UInt8(bytes.count == given.count ? 0 : 1)
      for index in bytes.indices {
        difference |= bytes[index] ^ (index < given.count ? given[index] : 0)
      }
      if difference == 0 { found = owner }
    }
    return found
  }
}

/// The caller of the request being served, when tokens are on.
enum Caller {
  @TaskLocal static var owner: String?
}

/// Checks the bearer token of requests under `/sessions` and runs the rest of the request as
/// its owner (``Caller/owner``).
struct BearerAuthMiddleware<Context: RequestContext>: RouterMiddleware {
  let tokens: BearerTokens

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard request.uri.path.hasPrefix("/sessions") else { return try await next(request, context) }
    guard let owner = tokens.owner(authorization: request.headers[.authorization]) else {
      var error = APIError(
        .unauthorized, code: "unauthorized",
        message: "This service needs an Authorization: Bearer token it knows.")
      error.challenge = "Bearer"
      throw error
    }
    return try await Caller.$owner.withValue(owner) { try await next(request, context) }
  }
}

/// The owner checks of a session's requests: nothing when tokens are off.
enum Ownership {
  /// Throws 404 for an unknown session, 403 when tokens are on and the session is not the
  /// caller's (a session without an owner, made while tokens were off, is nobody's).
  static func check(_ id: SessionID, journal: any JournalBackend) async throws {
    guard let caller = Caller.owner else { return }
    guard let session = try await journal.session(id) else {
      throw StorageError(code: .unknownSession, message: "No session has that identifier.")
    }
    if try SessionMetadata(session.metadata).owner != caller {
      throw APIError(
        .forbidden, code: "forbidden", message: "This session belongs to another owner.")
    }
  }

  /// Records the caller as the owner of a session it just created, when tokens are on.
  static func claim(_ id: SessionID, journal: any JournalBackend) async throws {
    guard let caller = Caller.owner else { return }
    var metadata = try SessionMetadata(try await journal.session(id)?.metadata)
    metadata.owner = caller
    try await journal.setMetadata(try metadata.encoded(), session: id)
  }
}
