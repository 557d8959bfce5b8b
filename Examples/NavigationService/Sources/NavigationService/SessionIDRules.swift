import StackStorage

/// The identifiers this service gives sessions: 1 to 64 of `A–Z a–z 0–9 . _ -`, not starting
/// with `.` — safe in a URL path, a file name, a log line and a page without escaping.
///
/// New sessions (created or forked) must follow them; a request naming an existing session is
/// looked up under the library's wider rules (``SessionID/problem``), so sessions written by
/// older versions stay reachable. Error messages never repeat the identifier a client sent.
enum SessionIDRules {
  /// The most characters an identifier may have.
  static let maximumLength = 64

  /// What a valid identifier is, for error messages.
  static let description =
    "A session identifier is 1 to 64 characters from A-Z, a-z, 0-9, '.', '_' and '-', "
    + "not starting with '.'."

  /// Whether an identifier may be given to a new session.
  static func allows(_ text: String) -> Bool {
    let scalars = text.unicodeScalars
    guard (1...maximumLength).contains(scalars.count), scalars.first != "." else { return false }
    return scalars.allSatisfy { scalar in
      switch scalar {
      case "A"..."Z", "a"..."z", "0"..."9", ".", "_", "-": true
      default: false
      }
    }
  }

  /// The identifier for a new session, or ``APIError/invalidSessionID``.
  static func newSession(_ text: String) throws -> SessionID {
    guard allows(text) else { throw APIError.invalidSessionID }
    return SessionID(text)
  }

  /// The identifier of a session a request names (its path's `id`, decoded): the library's
  /// rules, not the service's narrower ones, so that sessions written by older versions stay
  /// reachable; anything else is ``APIError/invalidSessionID`` (never repeated).
  static func existing(_ text: String) throws -> SessionID {
    let id = SessionID(text)
    if id.problem != nil { throw APIError.invalidSessionID }
    return id
  }
}
