import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a finished child process left: its exit status and its two outputs.
struct ChildResult {
  var status: Int32
  var standardOutput: String
  var standardError: String
}

/// Runs a program to its end, killing it after `timeout` (then the status says so: 124).
func runChild(
  _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
  timeout: Duration = .seconds(60)
) throws -> ChildResult {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if let environment { process.environment = environment }
  let folder = try TemporaryFolder()
  let out = folder.url.appendingPathComponent("stdout")
  let err = folder.url.appendingPathComponent("stderr")
  FileManager.default.createFile(atPath: out.path, contents: nil)
  FileManager.default.createFile(atPath: err.path, contents: nil)
  process.standardOutput = try FileHandle(forWritingTo: out)
  process.standardError = try FileHandle(forWritingTo: err)
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let deadline = ContinuousClock.now + timeout
  var timedOut = false
  while process.isRunning {
    if ContinuousClock.now > deadline {
      kill(process.processIdentifier, SIGKILL)
      timedOut = true
      break
    }
    usleep(20_000)
  }
  process.waitUntilExit()
  return ChildResult(
    status: timedOut ? 124 : process.terminationStatus,
    standardOutput: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
    standardError: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
}

/// Sends raw bytes to a loopback port and reads the reply until the server closes the
/// connection (or `timeout` passes): for requests `URLSession` will not send.
func rawExchange(port: Int, _ request: Data, timeout: Int = 20) throws -> Data {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { throw ServiceError(description: "socket() failed") }
  defer { close(fd) }
  var limit = timeval(tv_sec: timeout, tv_usec: 0)
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else { throw ServiceError(description: "connect() failed") }
  // The server may answer and stop reading before the whole request is sent; what it answered
  // is still read below.
  request.withUnsafeBytes { bytes in
    var sent = 0
    while sent < bytes.count {
      let count = send(fd, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
      if count <= 0 { break }
      sent += count
    }
  }
  shutdown(fd, Int32(SHUT_WR))
  var reply = Data()
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = recv(fd, &buffer, buffer.count, 0)
    if count <= 0 { break }
    reply.append(contentsOf: buffer[0..<count])
  }
  return reply
}

/// A raw HTTP/1.1 reply split into its status, headers (lowercased names) and body.
struct RawReply {
  var status: Int?
  var headers: [String: String] = [:]
  var body = Data()

  init(_ data: Data) {
    let separator = Data("\r\n\r\n".utf8)
    guard let range = data.range(of: separator) else { return }
    let head = String(decoding: data[..<range.lowerBound], as: UTF8.self)
    let lines = head.components(separatedBy: "\r\n")
    status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    body = data[range.upperBound...]
  }

  var errorCode: String? {
    let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    return (json?["error"] as? [String: Any])?["code"] as? String
  }
  var text: String { String(decoding: body, as: UTF8.self) }
}

/// Runs a shell command to its end with `posix_spawn` and `waitpid`, its output to `/dev/null`;
/// returns its exit status. For a command that leaves a daemon behind (`scripts/postgres.sh
/// restart`), which `Process.waitUntilExit` would wait for.
func runDetaching(_ command: String) -> Int32 {
  var pid: pid_t = 0
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let arguments = ["/bin/bash", "-c", command]
  var argv = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  guard posix_spawn(&pid, "/bin/bash", &actions, nil, &argv, environ) == 0 else { return -1 }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0, errno == EINTR {}
  return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}
