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

  /// A page open in the browser.
  public final class Tab: @unchecked Sendable {
    let browser: HeadlessChromium
    let target: String
    let session: String

    init(browser: HeadlessChromium, target: String, session: String) {
      self.browser = browser
      self.target = target
      self.session = session
    }

    /// Sends a DevTools protocol command to this tab and returns its result.
    @discardableResult
    public func command(_ method: String, _ parameters: [String: Any] = [:]) throws
      -> [String: Any]
    {
      try browser.send(method, parameters, session: session)
    }

    /// The value of a script expression (awaited when it is a promise), as JSON gives it.
    public func evaluate(_ expression: String) throws -> Any? {
      let result = try browser.send(
        "Runtime.evaluate",
        ["expression": expression, "returnByValue": true, "awaitPromise": true],
        session: session)
      if let exception = result["exceptionDetails"] as? [String: Any] {
        let text =
          ((exception["exception"] as? [String: Any])?["description"] as? String)
          ?? (exception["text"] as? String) ?? "\(exception)"
        throw Failure(description: "The page threw: \(text)")
      }
      return (result["result"] as? [String: Any])?["value"]
    }

    /// A string-valued expression.
    public func string(_ expression: String) throws -> String? {
      try evaluate(expression) as? String
    }

    /// Waits until a script expression is true.
    public func wait(until expression: String, timeout: Double = 30) throws {
      let deadline = Date().addingTimeInterval(timeout)
      while true {
        if (try? evaluate("Boolean(\(expression))")) as? Bool == true { return }
        guard Date() < deadline else {
          throw Failure(description: "The page never made `\(expression)` true in \(timeout) s.")
        }
        usleep(50_000)
      }
    }

    /// Presses and releases a key as a person would (`ArrowRight`, `Home`, `End`, ` `), through
    /// the browser's input pipeline.
    public func press(_ key: String, shift: Bool = false) throws {
      let codes: [String: (code: String, keyCode: Int)] = [
        "ArrowLeft": ("ArrowLeft", 37), "ArrowUp": ("ArrowUp", 38),
        "ArrowRight": ("ArrowRight", 39), "ArrowDown": ("ArrowDown", 40),
        "Home": ("Home", 36), "End": ("End", 35), " ": ("Space", 32), "Tab": ("Tab", 9),
      ]
      guard let code = codes[key] else { throw Failure(description: "No key code for \(key).") }
      var parameters: [String: Any] = [
        "key": key, "code": code.code, "windowsVirtualKeyCode": code.keyCode,
        "nativeVirtualKeyCode": code.keyCode, "modifiers": shift ? 8 : 0,
      ]
      if key == " " { parameters["text"] = " " }
      parameters["type"] = key == " " ? "keyDown" : "rawKeyDown"
      try browser.send("Input.dispatchKeyEvent", parameters, session: session)
      parameters["type"] = "keyUp"
      parameters.removeValue(forKey: "text")
      try browser.send("Input.dispatchKeyEvent", parameters, session: session)
    }

    /// Clicks at a point of the page, in CSS pixels.
    public func click(x: Double, y: Double) throws {
      for type in ["mousePressed", "mouseReleased"] {
        try browser.send(
          "Input.dispatchMouseEvent",
          ["type": type, "x": x, "y": y, "button": "left", "clickCount": 1], session: session)
      }
    }

    /// Sets the viewport's size in CSS pixels.
    public func resize(width: Int, height: Int) throws {
      try browser.send(
        "Emulation.setDeviceMetricsOverride",
        ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false],
        session: session)
    }

    /// A PNG of the viewport.
    public func screenshot() throws -> Data {
      let result = try browser.send("Page.captureScreenshot", ["format": "png"], session: session)
      guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
        throw Failure(description: "Page.captureScreenshot gave no image.")
      }
      return data
    }

    /// Closes the tab.
    public func close() throws {
      try browser.send("Target.closeTarget", ["targetId": target])
    }
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
