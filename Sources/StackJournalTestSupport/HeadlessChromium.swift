import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A headless Chromium driven through its DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: commands on file descriptor 3, answers on 4, each message a JSON
/// object ended by a NUL byte), for tests that open a page as a person would.
///
/// Every wait is bounded; ``close()`` (or deinit) ends the browser and removes its profile.
public final class HeadlessChromium: @unchecked Sendable {
  /// The browser's path: `CHROMIUM` when set, else the first of `chromium`,
  /// `chromium-browser`, `google-chrome` found on `PATH`; `nil` when there is none.
  public static func executable() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["CHROMIUM"], !path.isEmpty {
      return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
    let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for directory in directories {
        let path = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
      }
    }
    return nil
  }

  /// Why a browser could not be driven.
  public struct Failure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
  }

  private let pid: pid_t
  private let commands: Int32
  private let answers: Int32
  private let profile: URL
  private var buffer: [UInt8] = []
  private var nextID = 0
  private var closed = false
  /// How long one command may take, in seconds.
  public var timeout: Double = 60

  /// Starts the browser with a window of `width`×`height` CSS pixels.
  public init(width: Int = 1280, height: Int = 800) throws {
    guard let executable = Self.executable() else {
      throw Failure(description: "No Chromium found (install Debian's `chromium`).")
    }
    profile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stackjournal-chromium-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
    var toBrowser: [Int32] = [0, 0]
    var fromBrowser: [Int32] = [0, 0]
    guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
      throw Failure(description: "pipe() failed: errno \(errno)")
    }
    let arguments = [
      executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
      "--no-first-run", "--no-default-browser-check", "--disable-extensions",
      "--hide-scrollbars", "--mute-audio", "--window-size=\(width),\(height)",
      "--user-data-dir=\(profile.path)", "about:blank",
    ]
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
    posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
    let devNull = openDescriptor("/dev/null", O_WRONLY)
    if devNull >= 0 {
      posix_spawn_file_actions_adddup2(&actions, devNull, 1)
      posix_spawn_file_actions_adddup2(&actions, devNull, 2)
    }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
    closeDescriptor(toBrowser[0])
    closeDescriptor(fromBrowser[1])
    if devNull >= 0 { closeDescriptor(devNull) }
    guard status == 0 else {
      closeDescriptor(toBrowser[1])
      closeDescriptor(fromBrowser[0])
      throw Failure(description: "Cannot start \(executable): error \(status)")
    }
    pid = child
    commands = toBrowser[1]
    answers = fromBrowser[0]
    // A write to a browser that died must fail, not end the test process.
    signal(SIGPIPE, SIG_IGN)
  }

  deinit {
    close()
  }

  /// Ends the browser and removes its profile.
  public func close() {
    guard !closed else { return }
    closed = true
    closeDescriptor(commands)
    closeDescriptor(answers)
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<50 {
      if waitpid(pid, &status, WNOHANG) != 0 { break }
      usleep(100_000)
    }
    if waitpid(pid, &status, WNOHANG) == 0 {
      kill(pid, SIGKILL)
      waitpid(pid, &status, 0)
    }
    try? FileManager.default.removeItem(at: profile)
  }

  /// Sends a command and returns its `result`; throws the protocol's error.
  @discardableResult
  public func send(
    _ method: String, _ parameters: [String: Any] = [:], session: String? = nil
  ) throws -> [String: Any] {
    nextID += 1
    let id = nextID
    var message: [String: Any] = ["id": id, "method": method, "params": parameters]
    if let session { message["sessionId"] = session }
    var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
    bytes.append(0)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
      guard written > 0 else { throw Failure(description: "The browser stopped reading.") }
      offset += written
    }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let answer = try readMessage(until: deadline, waitingFor: method)
      guard answer["id"] as? Int == id else { continue }
      if let error = answer["error"] as? [String: Any] {
        throw Failure(description: "\(method) failed: \(error["message"] ?? error)")
      }
      return answer["result"] as? [String: Any] ?? [:]
    }
  }

  private func readMessage(until deadline: Date, waitingFor method: String) throws
    -> [String: Any]
  {
    while true {
      if let end = buffer.firstIndex(of: 0) {
        let message = Array(buffer[..<end])
        buffer.removeSubrange(...end)
        return (try JSONSerialization.jsonObject(with: Data(message))) as? [String: Any] ?? [:]
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else {
        throw Failure(description: "The browser did not answer \(method) in \(timeout) s.")
      }
      var poller = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
      if ready < 0 && errno != EINTR { throw Failure(description: "poll() failed: \(errno)") }
      guard ready > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
      guard count > 0 else { throw Failure(description: "The browser closed its pipe.") }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  /// Opens `url` in a new tab and returns it once `ready` (a script expression) is true.
  public func open(_ url: URL, until ready: String = "document.readyState === 'complete'")
    throws -> Tab
  {
    let target = try send("Target.createTarget", ["url": url.absoluteString])
    guard let targetID = target["targetId"] as? String else {
      throw Failure(description: "Target.createTarget gave no targetId.")
    }
    let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
    guard let session = attached["sessionId"] as? String else {
      throw Failure(description: "Target.attachToTarget gave no sessionId.")
    }
    let tab = Tab(browser: self, target: targetID, session: session)
    try tab.wait(until: ready)
    return tab
  }
}

private func closeDescriptor(_ descriptor: Int32) {
  #if canImport(Glibc)
    _ = Glibc.close(descriptor)
  #else
    _ = Darwin.close(descriptor)
  #endif
}

private func openDescriptor(_ path: String, _ flags: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.open(path, flags)
  #else
    Darwin.open(path, flags)
  #endif
}
