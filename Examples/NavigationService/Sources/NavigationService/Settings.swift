import Foundation
import Logging
import StackStorage

/// What the command line and the environment ask for: the service, or the help.
public enum Invocation: Sendable {
  case run(ServiceConfiguration, logLevel: Logger.Level)
  case help
}

/// A command line or an environment the service cannot run with: says which option or variable
/// and what it takes, never the value it was given.
public struct SettingsError: Error, CustomStringConvertible, Equatable {
  public var description: String
}

/// One setting: its option, its environment variable, and what it takes.
private struct Setting {
  var option: String
  var variable: String
  var expects: String
}

private let settings: [String: Setting] = {
  let list = [
    Setting(option: "--db", variable: "NAVIGATION_DB", expects: "an SQLite path or a postgres:// URL"),
    Setting(option: "--host", variable: "NAVIGATION_HOST", expects: "an address"),
    Setting(option: "--port", variable: "NAVIGATION_PORT", expects: "a whole number from 0 to 65535"),
    Setting(
      option: "--idle-seconds", variable: "NAVIGATION_IDLE_SECONDS",
      expects: "a number of seconds above 0 and below 1000000"),
    Setting(
      option: "--durability", variable: "NAVIGATION_DURABILITY",
      expects: "full, normal or group-commit"),
    Setting(
      option: "--drain-seconds", variable: "NAVIGATION_DRAIN_SECONDS",
      expects: "a number of seconds from 0 to 3600"),
    Setting(
      option: "--body-limit", variable: "NAVIGATION_BODY_LIMIT",
      expects: "a whole number of bytes from 1024 to 16777216"),
    Setting(
      option: "--auth-tokens", variable: "NAVIGATION_AUTH_TOKENS_FILE",
      expects: "a file of `TOKEN OWNER` lines"),
    Setting(
      option: "--log-level", variable: "NAVIGATION_LOG_LEVEL",
      expects: "trace, debug, info, notice, warning, error or critical"),
  ]
  return Dictionary(uniqueKeysWithValues: list.map { ($0.option, $0) })
}()

extension Invocation {
  /// The environment variables the service reads, each with its option.
  public static var variables: [(variable: String, option: String)] {
    settings.values.map { ($0.variable, $0.option) }.sorted { $0.variable < $1.variable }
  }

  /// Reads the command line, then the environment for what it does not give (an empty variable
  /// counts as unset); an option wins over its variable.
  ///
  /// Throws ``SettingsError`` for an unknown option, an option without a value, a value out of
  /// range, no database, or a `PGPASSWORD` that holds control characters or is over 1,024 bytes.
  public static func parse(
    arguments: [String], environment: [String: String]
  ) throws(SettingsError) -> Invocation {
    if arguments.contains("--help") || arguments.contains("-h") { return .help }
    var given: [String: String] = [:]
    var index = 0
    while index < arguments.count {
      let name = arguments[index]
      guard let setting = settings[name] else {
        throw SettingsError(description: "unknown option (see --help)")
      }
      guard index + 1 < arguments.count else {
        throw SettingsError(description: "\(name) takes \(setting.expects)")
      }
      given[name] = arguments[index + 1]
      index += 2
    }
    /// The option's value, or its variable's; with the name to blame when it is unusable.
    func value(_ option: String) -> (text: String, source: String)? {
      let setting = settings[option]!
      if let text = given[option] { return (text, option) }
      if let text = environment[setting.variable], !text.isEmpty {
        return (text, setting.variable)
      }
      return nil
    }
    func refuse(_ option: String, _ source: String) -> SettingsError {
      SettingsError(description: "\(source) takes \(settings[option]!.expects)")
    }
    func number(_ option: String, _ range: ClosedRange<Double>, default fallback: Double) throws(
      SettingsError
    ) -> Double {
      guard let (text, source) = value(option) else { return fallback }
      guard text.utf8.count <= 20, let number = Double(text), number.isFinite, range.contains(number)
      else { throw refuse(option, source) }
      return number
    }
    func whole(_ option: String, _ range: ClosedRange<Int>, default fallback: Int) throws(
      SettingsError
    ) -> Int {
      guard let (text, source) = value(option) else { return fallback }
      guard text.utf8.count <= 20, let number = Int(text), range.contains(number) else {
        throw refuse(option, source)
      }
      return number
    }

    guard let (database, databaseSource) = value("--db") else {
      throw SettingsError(
        description: "no database: give --db PATH|URL or set NAVIGATION_DB (see --help)")
    }
    // What a URL holds is the journal's to check (its errors escape what they quote).
    guard database.utf8.count <= 4096 else {
      throw SettingsError(description: "\(databaseSource) is over 4096 bytes")
    }
    let host = value("--host")?.text ?? "127.0.0.1"
    if host.utf8.count > 255 || host.unicodeScalars.contains(where: { isControl($0) || $0 == " " })
    {
      throw refuse("--host", value("--host")!.source)
    }
    let port = try whole("--port", 0...65535, default: 8080)
    let idle = try number("--idle-seconds", 0.001...999_999, default: 300)
    let drain = try number("--drain-seconds", 0...3600, default: 0)
    let bodyLimit = try whole(
      "--body-limit", 1024...16 * 1024 * 1024, default: ServiceConfiguration.defaultBodyLimit)
    var durability = Durability.groupCommit()
    if let (text, source) = value("--durability") {
      switch text {
      case "full": durability = .full
      case "normal": durability = .normal
      case "group-commit": durability = .groupCommit()
      default: throw refuse("--durability", source)
      }
    }
    var logLevel = Logger.Level.info
    if let (text, source) = value("--log-level") {
      guard let level = Logger.Level(rawValue: text) else { throw refuse("--log-level", source) }
      logLevel = level
    }
    if let password = environment["PGPASSWORD"],
      password.utf8.count > 1024 || password.unicodeScalars.contains(where: isControl)
    {
      throw SettingsError(description: "PGPASSWORD holds control characters or is over 1024 bytes")
    }
    var tokens: BearerTokens?
    if let (file, source) = value("--auth-tokens") {
      tokens = try BearerTokens(file: file, source: source)
    }
    return .run(
      ServiceConfiguration(
        databasePath: database, host: host, port: port,
        idleTimeout: .milliseconds(Int(idle * 1000)), durability: durability,
        drainDelay: .milliseconds(Int(drain * 1000)), bodyLimit: bodyLimit,
        tokens: tokens),
      logLevel: logLevel)
  }
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
  scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
}
