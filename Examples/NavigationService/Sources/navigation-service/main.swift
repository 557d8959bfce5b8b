import Foundation
import Logging
import NavigationService

let usage = """
  usage: navigation-service --db PATH|URL [--port N] [--host ADDRESS] [options]

  Serves navigation sessions over HTTP, kept in a StackJournal. Each option may instead come
  from the environment variable in brackets; an option given on the command line wins.

    --db PATH|URL       an SQLite file (created when missing), or a postgres:// URL when built
                        with `--traits PostgreSQL`; the password may come from PGPASSWORD
                        [NAVIGATION_DB]
    --port N            the port to listen on (default 8080; 0 takes a free one)
                        [NAVIGATION_PORT]
    --host ADDRESS      the address to listen on (default 127.0.0.1) [NAVIGATION_HOST]
    --idle-seconds S    how long a session stays in memory without requests (default 300)
                        [NAVIGATION_IDLE_SECONDS]
    --durability MODE   an SQLite journal's durability: group-commit (default), full or normal
                        [NAVIGATION_DURABILITY]
    --drain-seconds S   after SIGTERM, how long to keep serving with /health/ready at 503
                        before no longer accepting connections (default 0)
                        [NAVIGATION_DRAIN_SECONDS]
    --body-limit BYTES  the largest request body, 1024 to 16777216 (default 65536)
                        [NAVIGATION_BODY_LIMIT]
    --auth-tokens FILE  bearer tokens, one `TOKEN OWNER` a line: requests under /sessions then
                        need one, and a session is its creator's (default: no tokens)
                        [NAVIGATION_AUTH_TOKENS_FILE]
    --log-level LEVEL   trace, debug, info (default), notice, warning, error or critical
                        [NAVIGATION_LOG_LEVEL]
    -h, --help          prints this help

  """

let invocation: Invocation
do {
  invocation = try Invocation.parse(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment)
} catch {
  // The problem, then the synopsis: two lines, whatever the bad value held.
  let synopsis = usage.split(separator: "\n").first.map(String.init) ?? ""
  FileHandle.standardError.write(
    Data("navigation-service: \(error)\n\(synopsis.trimmingCharacters(in: .whitespaces))\n".utf8))
  exit(2)
}
guard case .run(let configuration, let logLevel) = invocation else {
  FileHandle.standardOutput.write(Data(usage.utf8))
  exit(0)
}
// One JSON object per line on standard error (see `JSONLogHandler`).
LoggingSystem.bootstrap { label in
  var handler = JSONLogHandler(label: label)
  handler.logLevel = logLevel
  return handler
}
var logger = Logger(label: "navigation-service")
logger.logLevel = logLevel
do {
  try await runService(configuration, logger: logger)
} catch {
  FileHandle.standardError.write(Data("navigation-service: \(error)\n".utf8))
  exit(1)
}
