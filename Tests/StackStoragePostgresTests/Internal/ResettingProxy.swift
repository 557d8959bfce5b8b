#if PostgreSQL
  import Foundation

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// A TCP proxy on loopback in front of the test's PostgreSQL server, which can reset the
  /// connections it carries: the client's end gets a TCP reset (as when a server or the network
  /// between goes away mid-request) while the server's end is merely closed.
  final class ResettingProxy: @unchecked Sendable {
    /// The port it listens on, on 127.0.0.1.
    let port: UInt16
    private let listener: Int32
    private let target: sockaddr_in
    private let lock = NSLock()
    private var pairs: [(client: Int32, server: Int32)] = []
    private var resetting = false

    /// Listens on a free port of 127.0.0.1 and forwards to `host` (an IPv4 address) and `port`.
    init(to host: String, port targetPort: UInt16) throws {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = targetPort.bigEndian
      guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
        throw POSIXError(.EINVAL)
      }
      target = address
      let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var local = sockaddr_in()
      local.sin_family = sa_family_t(AF_INET)
      local.sin_addr.s_addr = inet_addr("127.0.0.1")
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(listening, $0, length) == 0 && listen(listening, 16) == 0
            && getsockname(listening, $0, &length) == 0
        }
      }
      guard bound else {
        close(listening)
        throw POSIXError(.EADDRINUSE)
      }
      listener = listening
      port = UInt16(bigEndian: local.sin_port)
      Thread { [self] in acceptLoop() }.start()
    }

    /// Resets every connection carried so far; new ones are carried as before.
    func resetConnections() {
      lock.withLock { resetting = true }
      Thread.sleep(forTimeInterval: 0.2)  // the pumps poll every 50 ms and stop
      let closing = lock.withLock {
        defer { pairs.removeAll(); resetting = false }
        return pairs
      }
      for pair in closing {
        var abort = linger(l_onoff: 1, l_linger: 0)
        setsockopt(
          pair.client, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
        close(pair.client)
        close(pair.server)
      }
    }

    /// Stops listening; connections already carried stay until reset.
    func stop() {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
    }

    private func acceptLoop() {
      while true {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = target
        let connected = withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
          }
        }
        guard connected else {
          close(client)
          close(server)
          continue
        }
        lock.withLock { pairs.append((client, server)) }
        Thread { [self] in pump(from: client, to: server) }.start()
        Thread { [self] in pump(from: server, to: client) }.start()
      }
    }

    /// Copies bytes until the source ends or the proxy resets; polls so a reset stops it.
    private func pump(from source: Int32, to destination: Int32) {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        if lock.withLock({ resetting }) { return }
        var poller = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, 50)
        if ready < 0 { return }
        if ready == 0 { continue }
        let count = read(source, &buffer, buffer.count)
        if count <= 0 {
          shutdown(destination, Int32(SHUT_WR))
          return
        }
        var written = 0
        while written < count {
          let sent = buffer.withUnsafeBytes {
            write(destination, $0.baseAddress! + written, count - written)
          }
          if sent <= 0 { return }
          written += sent
        }
      }
    }
  }
#endif
