import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The folder of the built products: `swift test` builds the service next to the test bundle.
func builtExecutable(_ name: String) throws -> URL {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent()
  while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path) {
    let parent = directory.deletingLastPathComponent()
    guard parent.path != directory.path else {
      throw CocoaError(
        .fileNoSuchFile,
        userInfo: [NSLocalizedDescriptionKey: "'\(name)' is not built next to the tests."])
    }
    directory = parent
  }
  return directory.appendingPathComponent(name)
}

/// A temporary folder holding the database of a test, removed at the end.
final class TemporaryFolder {
  let url: URL
  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("navigation-service-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  var database: String { url.appendingPathComponent("sessions.sqlite").path }
  deinit { try? FileManager.default.removeItem(at: url) }
}

struct ServiceError: Error, CustomStringConvertible {
  var description: String
}

/// The service running as a child process on a free loopback port (`--port 0`; the port comes
/// from the line the service prints once it listens).
final class ServiceProcess: @unchecked Sendable {
  let process = Process()
  let port: Int
  private let output = Pipe()

  /// - Parameter standardError: A file that receives the service's standard error (its log);
  ///   by default the log is discarded.
  /// - Parameter environment: Variables added to the test's environment for the service; with
  ///   `database` `nil`, `NAVIGATION_DB` among them says where the sessions are.
  init(
    database: String?, extraArguments: [String] = [], environment: [String: String] = [:],
    standardError: URL? = nil
  ) throws {
    process.executableURL = try builtExecutable("navigation-service")
    process.arguments =
      (database.map { ["--db", $0] } ?? []) + ["--port", "0", "--host", "127.0.0.1"]
      + extraArguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    process.standardOutput = output
    if let standardError {
      FileManager.default.createFile(atPath: standardError.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: standardError)
    } else {
      process.standardError = FileHandle.nullDevice
    }
    try process.run()
    // Read lines until the service says where it listens (logs may come first).
    let handle = output.fileHandleForReading
    var buffer = Data()
    let deadline = Date().addingTimeInterval(60)
    var found: Int?
    while found == nil, Date() < deadline {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      buffer.append(chunk)
      let text = String(decoding: buffer, as: UTF8.self)
      for line in text.split(separator: "\n") where line.hasPrefix("listening on ") {
        found = line.split(separator: ":").last.flatMap { Int($0) }
      }
    }
    guard let found else {
      process.terminate()
      throw ServiceError(
        description: "the service did not start: \(String(decoding: buffer, as: UTF8.self))")
    }
    port = found
    // Keep draining the output so the child never blocks on a full pipe.
    handle.readabilityHandler = { handle in _ = handle.availableData }
  }

  /// `kill -9`: no shutdown at all.
  func kill9() {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    output.fileHandleForReading.readabilityHandler = nil
  }

  /// SIGTERM, then waits for the exit; returns the exit status.
  func terminate() -> Int32 {
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    output.fileHandleForReading.readabilityHandler = nil
    return process.terminationStatus
  }

  deinit {
    if process.isRunning { kill9() }
  }

  /// A response: status, headers and body parsed as JSON.
  struct Reply: @unchecked Sendable {
    var status: Int
    var contentType: String?
    var retryAfter: String?
    /// Every header of the response, by name as the server wrote it.
    var headers: [String: String] = [:]
    var body: Data
    var json: [String: Any] {
      (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }
    var stack: [String: Any] { json["stack"] as? [String: Any] ?? [:] }
    var ids: [Int] { stack["ids"] as? [Int] ?? [] }
    var cases: [String] { stack["cases"] as? [String] ?? [] }
    var nextID: Int? { stack["nextID"] as? Int }
    var sequence: Int? { json["sequence"] as? Int }
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    var text: String { String(decoding: body, as: UTF8.self) }
    /// A header's value; `name` in lower case.
    func header(_ name: String) -> String? { headers[name] }
  }

  func request(
    _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]
  ) async throws -> Reply {
    try await request(method, path, data: body.map { Data($0.utf8) }, headers: headers)
  }

  func request(
    _ method: String, _ path: String, data: Data?, headers: [String: String] = [:]
  ) async throws -> Reply {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    request.httpMethod = method
    request.timeoutInterval = 60
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let data {
      request.httpBody = data
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let (body, response) = try await URLSession.shared.data(for: request)
    let http = response as! HTTPURLResponse
    return Reply(
      status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"),
      retryAfter: http.value(forHTTPHeaderField: "Retry-After"),
      headers: Dictionary(
        http.allHeaderFields.map { ("\($0.key)".lowercased(), "\($0.value)") },
        uniquingKeysWith: { first, _ in first }),
      body: body)
  }

  /// Sends an action and expects it to be acknowledged.
  @discardableResult
  func send(_ session: String, _ action: String) async throws -> Reply {
    let reply = try await request("POST", "/sessions/\(session)/actions", body: action)
    #expect(reply.status == 200, "\(action) -> \(reply.status) \(reply.text)")
    return reply
  }
}

/// The actions of the wizard, as JSON: Swift's synthesized `Codable` form, where an unlabeled
/// associated value is under `_0`.
enum Actions {
  static let start = #"{"startTapped": {}}"#
  static let cancel = #"{"cancelTapped": {}}"#
  static func element(_ id: Int, _ step: String, _ action: String) -> String {
    #"{"path": {"_0": {"element": {"id": \#(id), "action": {"\#(step)": {"_0": \#(action)}}}}}}"#
  }
  static func name(_ id: Int, _ name: String) -> String {
    element(id, "name", #"{"nameChanged": {"name": "\#(name)"}}"#)
  }
  static func nameNext(_ id: Int) -> String { element(id, "name", #"{"nextTapped": {}}"#) }
  static func plan(_ id: Int, _ plan: String) -> String {
    element(id, "plan", #"{"planChosen": {"plan": "\#(plan)"}}"#)
  }
  static func planNext(_ id: Int) -> String { element(id, "plan", #"{"nextTapped": {}}"#) }
  static func submit(_ id: Int) -> String { element(id, "confirm", #"{"submitTapped": {}}"#) }
}
