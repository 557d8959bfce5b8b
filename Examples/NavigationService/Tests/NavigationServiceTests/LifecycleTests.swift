import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A loopback connection whose request is sent in parts, for a request that is in flight while
/// something else happens.
private final class SlowConnection {
  let fd: Int32

  init(port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServiceError(description: "socket() failed") }
    var limit = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      throw ServiceError(description: "connect() failed")
    }
  }

  func send(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Reads until the server closes the connection (or the 30-second timeout).
  func readToEnd() -> RawReply {
    var reply = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { break }
      reply.append(contentsOf: buffer[0..<count])
    }
    return RawReply(reply)
  }

  deinit { close(fd) }
}

@Suite("SIGTERM: readiness off, then drain, then the journal closes")
struct LifecycleTests {
  @Test("a request in flight at SIGTERM is answered and kept; readiness is 503 meanwhile")
  func drainsInFlight() async throws {
    let folder = try TemporaryFolder()
    let logFile = folder.url.appendingPathComponent("service.log")
    let service = try ServiceProcess(
      database: folder.database, extraArguments: ["--drain-seconds", "2"], standardError: logFile)
    #expect(try await service.request("POST", "/sessions", body: #"{"id": "d"}"#).status == 201)
    #expect(try await service.request("GET", "/health/ready").status == 200)

    // An action whose body has not fully arrived: in flight when the signal comes.
    let body = Actions.start
    let connection = try SlowConnection(port: service.port)
    connection.send(
      "POST /sessions/d/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        + String(body.prefix(5)))
    try await Task.sleep(for: .milliseconds(300))
    let signalled = ContinuousClock.now
    kill(service.process.processIdentifier, SIGTERM)

    // Readiness turns off at once, while the server still answers.
    var ready: ServiceProcess.Reply?
    while ContinuousClock.now - signalled < .seconds(1.5) {
      ready = try await service.request("GET", "/health/ready")
      if ready?.status == 503 { break }
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(ready?.status == 503, "\(ready?.text ?? "")")
    #expect(ready?.errorCode == "draining")
    #expect(try await service.request("GET", "/health/live").status == 200)

    // After the drain delay the server no longer accepts; the request in flight still ends.
    try await Task.sleep(until: signalled + .seconds(2.5))
    #expect(throws: (any Error).self) { _ = try SlowConnection(port: service.port) }
    connection.send(String(body.dropFirst(5)))
    let reply = connection.readToEnd()
    #expect(reply.status == 200, "\(reply.text)")
    let sequence = (try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any])?[
      "sequence"] as? Int
    #expect(sequence == 1)

    service.process.waitUntilExit()
    #expect(service.process.terminationStatus == 0)
    let log = try logLines(try String(contentsOf: logFile, encoding: .utf8)).compactMap {
      $0["message"] as? String
    }
    let order = ["shutting down: readiness off", "no new connections; in-flight requests finish"]
    #expect(log.filter(order.contains) == order, "\(log)")
    #expect(log.last == "stopped; journal closed", "\(log)")
    // The acknowledged action was not lost.
    let restarted = try ServiceProcess(database: folder.database)
    let stack = try await restarted.request("GET", "/sessions/d/stack")
    #expect(stack.sequence == 1)
    #expect(stack.cases == ["name"])
    #expect(restarted.terminate() == 0)
  }
}
