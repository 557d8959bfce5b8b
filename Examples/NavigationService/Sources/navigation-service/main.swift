import Foundation
import Logging
import NavigationService
import StackStorage

let usage = """
  usage: navigation-service --db PATH|URL [--port N] [--host ADDRESS] [--idle-seconds S]

  Serves navigation sessions over HTTP, kept in a StackJournal.

    --db PATH|URL       an SQLite file (created when missing), or a postgres:// URL when built
                        with `--traits PostgreSQL`; the password may come from PGPASSWORD
    --port N            the port to listen on (default 8080; 0 takes a free one)
    --host ADDRESS      the address to listen on (default 127.0.0.1)
    --idle-seconds S    how long a session stays in memory without requests (default 300)
    --durability MODE   an SQLite journal's durability: full (default), normal or group-commit
    --drain-seconds S   after SIGTERM, how long to keep serving with /health/ready at 503
                        before no longer accepting connections (default 0)
    -h, --help          prints this help

  """

/// What the command line asks for: the service, or the help.
enum Invocation {
  case run(ServiceConfiguration)
  case help
}

/// `navigation-service --db PATH|URL [--port N] [--host ADDRESS] [--idle-seconds S]`
func parseArguments(_ arguments: [String]) -> Invocation? {
  if arguments.contains("--help") || arguments.contains("-h") { return .help }
  var db: String?
  var host = "127.0.0.1"
  var port = 8080
  var idle = 300.0
  var durability = Durability.full
  var drain = 0.0
  var index = 0
  while index < arguments.count {
    let name = arguments[index]
    guard index + 1 < arguments.count else { return nil }
    let value = arguments[index + 1]
    switch name {
    case "--db": db = value
    case "--host": host = value
    case "--port":
      guard let number = Int(value), (0...65535).contains(number) else { return nil }
      port = number
    case "--idle-seconds":
      guard let seconds = Double(value), seconds > 0, seconds < 1e6 else { return nil }
      idle = seconds
    case "--drain-seconds":
      guard let seconds = Double(value), seconds >= 0, seconds <= 3600 else { return nil }
      drain = seconds
    case "--durability":
      switch value {
      case "full": durability = .full
      case "normal": durability = .normal
      case "group-commit": durability = .groupCommit()
      default: return nil
      }
    default: return nil
    }
    index += 2
  }
  guard let db else { return nil }
  return .run(
    ServiceConfiguration(
      databasePath: db, host: host, port: port, idleTimeout: .milliseconds(Int(idle * 1000)),
      durability: durability, drainDelay: .milliseconds(Int(drain * 1000))))
}

let configuration: ServiceConfiguration
switch parseArguments(Array(CommandLine.arguments.dropFirst())) {
case .help:
  FileHandle.standardOutput.write(Data(usage.utf8))
  exit(0)
case .run(let parsed):
  configuration = parsed
case nil:
  FileHandle.standardError.write(Data(usage.utf8))
  exit(2)
}
// One JSON object per line on standard error (see `JSONLogHandler`).
LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
var logger = Logger(label: "navigation-service")
logger.logLevel = .info
do {
  try await runService(configuration, logger: logger)
} catch {
  FileHandle.standardError.write(Data("navigation-service: \(error)\n".utf8))
  exit(1)
}
