import Foundation
import Logging
import NavigationService

/// `navigation-service --db PATH|URL [--port N] [--host ADDRESS] [--idle-seconds S]`
func parseArguments(_ arguments: [String]) -> ServiceConfiguration? {
  var db: String?
  var host = "127.0.0.1"
  var port = 8080
  var idle = 300.0
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
    default: return nil
    }
    index += 2
  }
  guard let db else { return nil }
  return ServiceConfiguration(
    databasePath: db, host: host, port: port, idleTimeout: .milliseconds(Int(idle * 1000)))
}

guard let configuration = parseArguments(Array(CommandLine.arguments.dropFirst())) else {
  FileHandle.standardError.write(
    Data(
      ("usage: navigation-service --db PATH|URL [--port N] [--host ADDRESS] "
        + "[--idle-seconds S]\n").utf8))
  exit(2)
}
var logger = Logger(label: "navigation-service")
logger.logLevel = .info
do {
  try await runService(configuration, logger: logger)
} catch {
  FileHandle.standardError.write(Data("navigation-service: \(error)\n".utf8))
  exit(1)
}
