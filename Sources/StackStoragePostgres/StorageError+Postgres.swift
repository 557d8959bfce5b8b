#if PostgreSQL
  import NIOCore
  import NIOPosix
  import PostgresNIO
  import StackJournalCore
  import _ConnectionPoolModule

  /// The SQLSTATEs the journal's functions raise (see `Migrations/postgres/0001_initial.sql`).
  enum JournalSQLState {
    static let unknownSession = "SJ404"
    static let sequenceConflict = "SJ409"
    static let outOfRange = "SJ416"
    static let inconsistentDelta = "SJ422"
  }

  /// What a `StorageError` keeps of a postgres-nio error: the error itself, for code that
  /// inspects it, described by its kind only. `PSQLError`'s own description is a fixed sentence
  /// that says nothing, and its reflection may hold the query and its bindings (user data), so
  /// neither is printed beside the message.
  public struct PostgresUnderlyingError: Error, CustomStringConvertible, Sendable {
    /// The error postgres-nio threw.
    public let error: PSQLError

    public var description: String {
      if let state = error.serverInfo?[.sqlState] {
        return "SQLSTATE \(StorageError.printable(state))"
      }
      return "PSQLError.\(String(describing: error.code))"
    }
  }

  extension StorageError {
    /// Wraps an error of postgres-nio, the pool or the journal in one line that names the
    /// server and what was being done.
    init(postgres error: any Error, _ location: PostgresLocation, doing activity: String) {
      if let error = error as? StorageError {
        self = error
        return
      }
      // A transaction's failure is that of its `BEGIN`, its work or its `COMMIT`.
      if let error = error as? PostgresTransactionError,
        let cause = error.commitError ?? error.closureError ?? error.beginError
      {
        self.init(postgres: cause, location, doing: activity)
        return
      }
      let place = location.description
      if let error = error as? PSQLError {
        switch error.code {
        case .server:
          let state = error.serverInfo?[.sqlState] ?? ""
          let serverMessage = Self.printable(error.serverInfo?[.message] ?? "")
          switch state {
          case "28P01", "28000":
            self.init(
              code: .authenticationFailed,
              message: "PostgreSQL at \(place) refused the user \(location.user): "
                + "\(serverMessage). Check the user and the password in the URL (or "
                + "PGPASSWORD).", underlying: PostgresUnderlyingError(error: error))
          case "3D000":
            self.init(
              code: .databaseNotFound,
              message: "PostgreSQL at \(location.host):\(location.port) has no database "
                + "\(location.database). Create it (createdb \(location.database)) or fix the "
                + "URL.", underlying: PostgresUnderlyingError(error: error))
          case "57P01", "57P02", "57P03":
            self.init(
              code: .connectionLost,
              message: "PostgreSQL at \(place) is shutting down or restarting (\(serverMessage)) "
                + "while \(activity). If this was a write, whether it happened is unknown: read "
                + "the session's head; the next call connects again.", underlying: PostgresUnderlyingError(error: error))
          case "25006":
            self.init(
              code: .readOnly,
              message: "PostgreSQL at \(place) refused a write while \(activity): the "
                + "connection is read-only.", underlying: PostgresUnderlyingError(error: error))
          case "53300":
            self.init(
              code: .connectionRefused,
              message: "PostgreSQL at \(place) has too many connections (\(serverMessage)) "
                + "while \(activity); lower the journal's maximumConnections or raise the "
                + "server's max_connections.", underlying: PostgresUnderlyingError(error: error))
          default:
            self.init(
              code: .database,
              message: "PostgreSQL failed while \(activity) at \(place): \(serverMessage) "
                + "(SQLSTATE \(Self.printable(state))).", underlying: PostgresUnderlyingError(error: error))
          }
        case .connectionError where !Self.failedToConnect(error.underlying):
          // postgres-nio reports an I/O error on a connection already made (a reset when the
          // server stops, a broken pipe) as a connection error too: what was sent may have
          // been applied.
          self.init(
            code: .connectionLost,
            message: "The connection to PostgreSQL at \(place) broke while \(activity) ("
              + "\(Self.connectionReason(error.underlying))). If this was a write, whether it "
              + "happened is unknown: read the session's head; the next call connects again.",
            underlying: PostgresUnderlyingError(error: error))
        case .connectionError:
          let reason = Self.connectionReason(error.underlying)
          self.init(
            code: .connectionRefused,
            message: "Cannot connect to PostgreSQL at \(location.host):\(location.port) while "
              + "\(activity): \(reason). Check that the server is running and the URL's host "
              + "and port.", underlying: PostgresUnderlyingError(error: error))
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
          self.init(
            code: .connectionLost,
            message: "The connection to PostgreSQL at \(place) broke while \(activity) (the "
              + "server restarted or the network failed). If this was a write, whether it "
              + "happened is unknown: read the session's head; the next call connects again.",
            underlying: PostgresUnderlyingError(error: error))
        case .sslUnsupported:
          self.init(
            code: .connectionRefused,
            message: "PostgreSQL at \(place) does not offer TLS, which the URL requires "
              + "(sslmode=require).", underlying: PostgresUnderlyingError(error: error))
        default:
          self.init(
            code: .database,
            message: "PostgreSQL failed while \(activity) at \(place): \(String(reflecting: error.code)).",
            underlying: PostgresUnderlyingError(error: error))
        }
        return
      }
      if let error = error as? ConnectionPoolError {
        let reason =
          error == .connectionCreationCircuitBreakerTripped
          ? "no connection could be made for a while" : "\(error)"
        self.init(
          code: .connectionRefused,
          message: "Cannot connect to PostgreSQL at \(location.host):\(location.port) while "
            + "\(activity): \(reason). Check that the server is running.", underlying: error)
        return
      }
      if error is CancellationError {
        self.init(
          code: .timedOut,
          message: "Cancelled while \(activity) at \(place).", underlying: error)
        return
      }
      self.init(
        code: .database,
        message: "PostgreSQL failed while \(activity) at \(place): \(Self.printable("\(error)")).",
        underlying: error)
    }

    /// The reason a connection failed, short.
    /// Whether a connection error happened while connecting, so nothing was sent: the
    /// connection attempts failed (refused, unreachable, no such host) or timed out, or the
    /// channel was closed before it was used. Anything else broke a connection in use.
    static func failedToConnect(_ underlying: (any Error)?) -> Bool {
      switch underlying {
      case is NIOConnectionError:
        return true
      case let error as ChannelError:
        if case .connectTimeout = error { return true }
        return false
      case let error as IOError:
        return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL, ENOENT, EACCES]
          .contains(error.errnoCode)
      case nil:
        return true
      default:
        let text = "\(underlying!)"
        return text.contains("refused") || text.contains("resolve") || text.contains("getaddrinfo")
      }
    }

    static func connectionReason(_ underlying: (any Error)?) -> String {
      let text = underlying.map { "\($0)" } ?? ""
      if text.contains("refused") { return "connection refused" }
      if text.localizedCaseInsensitiveContains("timeout")
        || text.localizedCaseInsensitiveContains("timed out")
      {
        return "no answer (timed out)"
      }
      if text.contains("resolve") || text.contains("DNS") || text.contains("getaddrinfo") {
        return "the host name does not resolve"
      }
      return text.isEmpty ? "the connection failed" : printable(text)
    }
  }
#endif
