import Foundation
import StackJournalCore

/// Where a PostgreSQL journal lives: server, user, database and the PostgreSQL schema that holds
/// the journal's tables, parsed from a URL such as
/// `postgres://user:password@127.0.0.1:5433/app?schema=stackjournal`.
///
/// Query parameters: `schema` (default `stackjournal`; lowercase letters, digits and `_`), and
/// `sslmode` (`disable`, the default, or `require`, which verifies the server's certificate). The
/// password may also come from the `PGPASSWORD` environment variable.
public struct PostgresLocation: Sendable, Equatable {
  /// The server's host name or address.
  public var host: String
  /// The server's port.
  public var port: Int
  /// The user to connect as.
  public var user: String
  /// The password, if any.
  public var password: String?
  /// The database.
  public var database: String
  /// The PostgreSQL schema (namespace) of the journal's tables.
  public var schema: String
  /// Whether to require TLS.
  public var requireTLS: Bool

  /// Whether `text` is a PostgreSQL URL (`postgres://` or `postgresql://`) rather than a path.
  public static func isURL(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  /// Parses a URL, or throws a `StorageError` with code `StorageError.Code.invalidData`
  /// that says what is wrong with it.
  public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws
  {
    func invalid(_ problem: String) -> StorageError {
      StorageError(
        code: .invalidData,
        message: "The database URL is not usable: \(problem). Write it as "
          + "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME]."
      )
    }
    guard Self.isURL(text), text.utf8.count <= 2048, let components = URLComponents(string: text)
    else {
      throw invalid("it does not start with postgres:// or is malformed")
    }
    guard let host = components.host, !host.isEmpty else { throw invalid("it names no host") }
    guard let user = components.user, !user.isEmpty else { throw invalid("it names no user") }
    let database = String(components.path.drop { $0 == "/" })
    guard !database.isEmpty, !database.contains("/") else {
      throw invalid("it names no database (the path after the host)")
    }
    self.host = host
    self.port = components.port ?? 5432
    self.user = user
    self.password = components.password ?? environment["PGPASSWORD"]
    self.database = database
    self.schema = "stackjournal"
    self.requireTLS = false
    for item in components.queryItems ?? [] {
      switch item.name {
      case "schema":
        let name = item.value ?? ""
        guard Self.isPlainIdentifier(name) else {
          throw invalid(
            "the schema `\(JSONText.literal(name).dropFirst().dropLast())` is not made of "
              + "lowercase letters, digits and _ (starting with a letter or _, at most 63)")
        }
        self.schema = name
      case "sslmode":
        switch item.value {
        case "disable": self.requireTLS = false
        case "require", "verify-full": self.requireTLS = true
        default: throw invalid("sslmode must be disable or require")
        }
      default:
        throw invalid("the parameter `\(JSONText.literal(item.name).dropFirst().dropLast())` is unknown")
      }
    }
  }

  /// Creates a location from its parts.
  public init(
    host: String,
    port: Int = 5432,
    user: String,
    password: String?,
    database: String,
    schema: String = "stackjournal",
    requireTLS: Bool = false
  ) {
    precondition(Self.isPlainIdentifier(schema), "A schema name is lowercase letters, digits, _.")
    self.host = host
    self.port = port
    self.user = user
    self.password = password
    self.database = database
    self.schema = schema
    self.requireTLS = requireTLS
  }

  /// The URL without the password, for messages.
  public var description: String {
    let hostText = host.contains(":") ? "[\(host)]" : host
    let suffix = schema == "stackjournal" ? "" : "?schema=\(schema)"
    return "postgres://\(user)@\(hostText):\(port)/\(database)\(suffix)"
  }

  static func isPlainIdentifier(_ name: String) -> Bool {
    guard let first = name.utf8.first, name.utf8.count <= 63,
      first == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
    else { return false }
    return name.utf8.allSatisfy {
      $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
    }
  }
}
