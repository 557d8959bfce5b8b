import Foundation
import NavigationService
import StackRestoration
import StackStorage
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

// Drives the service over loopback HTTP with 1, 8 and 64 clients (one session and one keep-alive
// connection each), then 64 sessions in-process through `RecordingStore` on the same journal, and
// prints actions/s and latency percentiles for each. Bounded: each phase stops after its seconds
// or its action cap, whichever comes first. An SQLite journal is opened at one durability, the
// service's default unless `--durability` says otherwise, by the service and by the in-process
// phase alike. Run by scripts/bench.sh.
//
//   navigation-bench --db PATH|URL [--seconds S] [--cap N] [--durability MODE]

struct Options {
  var database = ""
  var seconds = 5.0
  var cap = 20_000
  /// `--durability` as the service takes it.
  var durabilityName = "group-commit"
  var durability: Durability = .groupCommit()
}

func parseOptions() -> Options? {
  var options = Options()
  var arguments = Array(CommandLine.arguments.dropFirst())
  while arguments.count >= 2 {
    let (name, value) = (arguments[0], arguments[1])
    arguments.removeFirst(2)
    switch name {
    case "--db": options.database = value
    case "--seconds":
      guard let seconds = Double(value), seconds > 0, seconds <= 120 else { return nil }
      options.seconds = seconds
    case "--cap":
      guard let cap = Int(value), cap > 0, cap <= 1_000_000 else { return nil }
      options.cap = cap
    case "--durability":
      let modes: [String: Durability] = [
        "group-commit": .groupCommit(), "full": .full, "normal": .normal,
      ]
      guard let durability = modes[value] else { return nil }
      (options.durabilityName, options.durability) = (value, durability)
    default: return nil
    }
  }
  return arguments.isEmpty && !options.database.isEmpty ? options : nil
}

guard let options = parseOptions() else {
  FileHandle.standardError.write(
    Data(
      ("usage: navigation-bench --db PATH|URL [--seconds S (≤120)] [--cap N] "
        + "[--durability group-commit|full|normal]\n").utf8))
  exit(2)
}

/// The two actions each client alternates: the stack stays one element deep.
let actions = [#"{"startTapped": {}}"#, #"{"cancelTapped": {}}"#]

/// Latencies of one phase, in seconds.
struct Tally {
  var latencies: [Double] = []
  var failures = 0
  var elapsed = 0.0

  func percentile(_ p: Double) -> Double {
    guard !latencies.isEmpty else { return .nan }
    let sorted = latencies.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
  }

  /// Actions (or requests) a second.
  var rate: Double { Double(latencies.count) / elapsed }

  func line(_ mode: String, clients: Int) -> String {
    mode.padding(toLength: 12, withPad: " ", startingAt: 0)
      + String(
        format: " %7d %9d %11.0f %9.2f %9.2f %8d", clients, latencies.count, rate,
        percentile(0.5) * 1000, percentile(0.99) * 1000, failures)
  }
}

/// One keep-alive HTTP/1.1 connection to the service on loopback.
final class Connection {
  let fd: Int32
  var buffer: [UInt8] = []

  init(port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var yes: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    var limit = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
  }

  deinit { close(fd) }

  /// Sends a request and returns the status of its response.
  func exchange(_ method: String, _ path: String, body: String) -> Int {
    let request = Array(
      "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        .utf8) + Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    let sent = request.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == request.count else { return 0 }
    // The head, then Content-Length bytes of body.
    while true {
      if let end = headEnd() {
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length =
          head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
          .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        while buffer.count < end + 4 + length { guard fill() else { return 0 } }
        buffer.removeFirst(end + 4 + length)
        return status
      }
      guard fill() else { return 0 }
    }
  }

  private func headEnd() -> Int? {
    guard buffer.count >= 4 else { return nil }
    for index in 0...(buffer.count - 4)
    where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
      && buffer[index + 3] == 10
    {
      return index
    }
    return nil
  }

  private func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16384)
    let count = recv(fd, &chunk, chunk.count, 0)
    guard count > 0 else { return false }
    buffer.append(contentsOf: chunk[0..<count])
    return true
  }
}

/// Starts the built service next to this executable on a free port; returns it and the port.
func startService(database: String) throws -> (Process, Int) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    .resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("navigation-service")
  process.arguments = [
    "--db", database, "--port", "0", "--host", "127.0.0.1", "--log-level", "warning",
    "--durability", options.durabilityName,
  ]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  var text = ""
  let deadline = Date().addingTimeInterval(60)
  while Date() < deadline {
    let chunk = output.fileHandleForReading.availableData
    if chunk.isEmpty { break }
    text += String(decoding: chunk, as: UTF8.self)
    if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
      let port = line.split(separator: ":").last.flatMap({ Int($0) })
    {
      return (process, port)
    }
  }
  process.terminate()
  throw CocoaError(.fileReadUnknown)
}

/// What a client sends: the method, path and body of its `index`-th request.
typealias Request = @Sendable (_ client: Int, _ index: Int) -> (
  method: String, path: String, body: String
)

/// `clients` threads, each on its own session and connection, sending actions back to back; or,
/// with `request`, what it says.
func runHTTP(port: Int, clients: Int, prefix: String, request: Request? = nil) throws -> Tally {
  let setup = try Connection(port: port)
  for client in 0..<clients {
    let status = setup.exchange("POST", "/sessions", body: #"{"id": "\#(prefix)-\#(client)"}"#)
    guard status == 201 else { throw CocoaError(.fileWriteUnknown) }
  }
  let request =
    request ?? { client, index in
      ("POST", "/sessions/\(prefix)-\(client)/actions", actions[index % 2])
    }
  let results = Mutex<[Tally]>([])
  let perClientCap = max(1, options.cap / clients)
  let start = Date()
  let deadline = start.addingTimeInterval(options.seconds)
  let group = DispatchGroup()
  for client in 0..<clients {
    group.enter()
    Thread.detachNewThread {
      var tally = Tally()
      if let connection = try? Connection(port: port) {
        var index = 0
        while index < perClientCap, Date() < deadline {
          let (method, path, body) = request(client, index)
          let began = DispatchTime.now().uptimeNanoseconds
          let status = connection.exchange(method, path, body: body)
          let took = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
          if status == 200 { tally.latencies.append(took) } else { tally.failures += 1 }
          index += 1
        }
      } else {
        tally.failures += 1
      }
      results.withLock { $0.append(tally) }
      group.leave()
    }
  }
  group.wait()
  var total = Tally()
  total.elapsed = Date().timeIntervalSince(start)
  for tally in results.withLock({ $0 }) {
    total.latencies += tally.latencies
    total.failures += tally.failures
  }
  return total
}

/// 64 sessions in this process, each a `RecordingStore` on the same journal, sending actions
/// back to back.
func runInProcess(database: String, sessions: Int) async throws -> Tally {
  let journal = try await openJournal(database, durability: options.durability)
  let start = Date()
  let deadline = start.addingTimeInterval(options.seconds)
  let perSessionCap = max(1, options.cap / sessions)
  let decoded = try actions.map {
    try JSONDecoder().decode(SignupWizard.Action.self, from: Data($0.utf8))
  }
  var total = Tally()
  try await withThrowingTaskGroup(of: Tally.self) { group in
    for session in 0..<sessions {
      group.addTask {
        let store = try await RecordingStore.open(
          session: SessionID("inproc-\(session)"), journal: journal,
          initialState: SignupWizard.State()
        ) { SignupWizard() }
        var tally = Tally()
        var index = 0
        while index < perSessionCap, Date() < deadline {
          let began = ContinuousClock.now
          do {
            try await store.send(decoded[index % 2])
            let took = ContinuousClock.now - began
            tally.latencies.append(
              Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
          } catch {
            tally.failures += 1
          }
          index += 1
        }
        return tally
      }
    }
    for try await tally in group {
      total.latencies += tally.latencies
      total.failures += tally.failures
    }
  }
  total.elapsed = Date().timeIntervalSince(start)
  try? await journal.close()
  return total
}

let isPostgres = options.database.hasPrefix("postgres")
print(
  "backend: \(isPostgres ? "PostgreSQL" : "SQLite, durability \(options.durabilityName)"), "
    + "\(options.seconds) s or \(options.cap) actions per phase")
print("mode         clients   actions   actions/s   p50 ms    p99 ms  failures")
let run = UUID().uuidString.prefix(8).lowercased()
/// Starts the service, runs `clients` HTTP clients on it (`request`: actions by default), stops
/// it, prints the phase's line and returns its rate.
func httpPhase(_ mode: String, clients: Int, prefix: String, request: Request? = nil) throws
  -> Double
{
  let (service, port) = try startService(database: options.database)
  let tally = try runHTTP(port: port, clients: clients, prefix: prefix, request: request)
  kill(service.processIdentifier, SIGTERM)
  service.waitUntilExit()
  print(tally.line(mode, clients: clients))
  return tally.rate
}
for clients in [1, 8] {
  _ = try httpPhase("http", clients: clients, prefix: "http\(clients)-\(run)")
}
let http64 = try httpPhase("http", clients: 64, prefix: "http64-\(run)")
// The same 64 clients asking for what costs the service nothing (`GET /health/live`): the
// cost of a request itself (loopback TCP, HTTP, the middlewares) on this machine.
let noop = try httpPhase("http no-op", clients: 64, prefix: "noop-\(run)") { _, _ in
  ("GET", "/health/live", "")
}
let inProcess = try await runInProcess(database: options.database, sessions: 64)
print(inProcess.line("in-process", clients: 64))
let inProcessRate = inProcess.rate
print(
  String(format: "http at 64 clients / in-process at 64 sessions: %.2f", http64 / inProcessRate))
// With every phase using all cores, an action over HTTP costs at least a no-op request plus an
// in-process action: the ratio above cannot pass no-op / (no-op + in-process).
print(
  String(
    format: "bound: an action over HTTP costing a no-op request plus an in-process action: %.2f",
    noop / (noop + inProcessRate)))
