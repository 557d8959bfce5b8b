import Foundation

/// What a run of the `stackjournal` binary printed, and how it ended.
public struct CLIResult: Sendable {
  /// The exit status.
  public var status: Int32
  /// Everything written to standard output.
  public var stdout: String
  /// Everything written to standard error.
  public var stderr: String

  /// Standard output parsed as one JSON document.
  public func json() throws -> Any {
    try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
  }

  /// Standard output parsed as one JSON object.
  public func jsonObject() throws -> [String: Any] {
    guard let object = try json() as? [String: Any] else {
      throw CLIRunnerError("The output is not a JSON object: \(stdout.prefix(200))")
    }
    return object
  }

  /// Standard output parsed as one JSON object per line.
  public func jsonLines() throws -> [[String: Any]] {
    try stdout.split(separator: "\n").map { line in
      guard
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      else { throw CLIRunnerError("A line is not a JSON object: \(line.prefix(200))") }
      return object
    }
  }

  /// The lines of standard error.
  public var stderrLines: [Substring] { stderr.split(separator: "\n") }
}

/// A failure of the runner itself (not of the command it ran).
public struct CLIRunnerError: Error, CustomStringConvertible {
  /// What went wrong.
  public var description: String

  /// Creates an error.
  public init(_ description: String) {
    self.description = description
  }
}

/// The `stackjournal` binary that `swift test` built, next to the test bundle in the products
/// directory (`STACKJOURNAL_CLI` overrides it). Never builds it.
public func stackjournalExecutable() throws -> URL {
  if let path = ProcessInfo.processInfo.environment["STACKJOURNAL_CLI"], !path.isEmpty {
    return URL(fileURLWithPath: path)
  }
  var candidates: [URL] = []
  for bundle in [Bundle.main] + Bundle.allBundles {
    candidates.append(bundle.bundleURL.deletingLastPathComponent())
    candidates.append(bundle.bundleURL)
    if let executable = bundle.executableURL {
      candidates.append(executable.deletingLastPathComponent())
    }
  }
  candidates.append(
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
  for directory in candidates {
    let binary = directory.appendingPathComponent("stackjournal")
    if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
  }
  throw CLIRunnerError(
    "No stackjournal binary next to the tests (looked in "
      + Set(candidates.map(\.path)).sorted().joined(separator: ", ")
      + "). Run the tests with `swift test`, which builds it, or set STACKJOURNAL_CLI.")
}

/// Runs the built `stackjournal` binary with arguments and waits for it to end.
///
/// Standard output and error go to temporary files, so a large output never blocks the run.
/// The environment is the test's, without `STACKJOURNAL_DB` and `NO_COLOR`, plus `environment`.
public func runCLI(
  _ arguments: [String],
  environment: [String: String] = [:],
  directory: URL? = nil,
  timeout: TimeInterval = 120
) throws -> CLIResult {
  let scratch = try makeScratchDirectory()
  defer { try? FileManager.default.removeItem(at: scratch) }
  let outURL = scratch.appendingPathComponent("stdout")
  let errURL = scratch.appendingPathComponent("stderr")
  _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
  _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
  let out = try FileHandle(forWritingTo: outURL)
  let err = try FileHandle(forWritingTo: errURL)
  let process = Process()
  process.executableURL = try stackjournalExecutable()
  process.arguments = arguments
  process.environment = cliEnvironment(environment)
  if let directory { process.currentDirectoryURL = directory }
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try run(process, timeout: timeout, "stackjournal \(arguments.joined(separator: " "))")
  try out.close()
  try err.close()
  return CLIResult(
    status: process.terminationStatus,
    stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
    stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

/// Runs the built `stackjournal` binary through `/bin/sh`, with `setup` run by the shell first
/// (`umask 022`, `ulimit -f 8`, `trap '' XFSZ`) and `redirection` applied to the binary
/// (`> /dev/full`), the binary started through `wrapper` when given (`setpriv …`); standard
/// output and error are captured unless redirected.
public func runCLIThroughShell(
  _ arguments: [String],
  setup: String = "",
  wrapper: String = "",
  redirection: String = "",
  timeout: TimeInterval = 120
) throws -> CLIResult {
  let scratch = try makeScratchDirectory()
  defer { try? FileManager.default.removeItem(at: scratch) }
  let outPath = scratch.appendingPathComponent("stdout").path
  let errPath = scratch.appendingPathComponent("stderr").path
  let script =
    (setup.isEmpty ? "" : setup + "; ")
    + "exec \(wrapper) \"$0\" \"$@\" >'\(outPath)' 2>'\(errPath)' \(redirection)"
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", script, try stackjournalExecutable().path] + arguments
  process.environment = cliEnvironment([:])
  process.standardInput = FileHandle.nullDevice
  try run(process, timeout: timeout, "sh -c \(script)")
  func read(_ path: String) -> String {
    (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
      ?? ""
  }
  return CLIResult(status: process.terminationStatus, stdout: read(outPath), stderr: read(errPath))
}

/// A new temporary directory for one run's output; the caller removes it.
private func makeScratchDirectory() throws -> URL {
  let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("stackjournal-run-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  return scratch
}

/// Starts `process` and waits for its end; past `timeout` it is terminated and the run fails
/// with an error naming `command`.
private func run(_ process: Process, timeout: TimeInterval, _ command: String) throws {
  try process.run()
  let deadline = Date().addingTimeInterval(timeout)
  while process.isRunning {
    if Date() > deadline {
      process.terminate()
      process.waitUntilExit()
      throw CLIRunnerError("\(command) ran past \(timeout) s")
    }
    Thread.sleep(forTimeInterval: 0.005)
  }
  process.waitUntilExit()
}

/// A `stackjournal` process that keeps running (`log --follow`), read line by line.
public final class CLIProcess: @unchecked Sendable {
  private let process = Process()
  private let pipe = Pipe()
  private let errorPipe = Pipe()
  private let lock = NSLock()
  private var buffer = Data()
  private var errorBuffer = Data()

  /// Starts the binary with arguments.
  public init(_ arguments: [String], environment: [String: String] = [:]) throws {
    process.executableURL = try stackjournalExecutable()
    process.arguments = arguments
    process.environment = cliEnvironment(environment)
    process.standardOutput = pipe
    process.standardError = errorPipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    collect(pipe, into: \.buffer)
    collect(errorPipe, into: \.errorBuffer)
  }

  /// Appends what `pipe` delivers to the buffer at `buffer`, as it arrives, until the process
  /// closes its end.
  ///
  /// A thread of its own blocks on the read: a dispatch readability handler, removed while the
  /// process ends, can crash libdispatch's event loop on Linux.
  private func collect(
    _ pipe: Pipe, into buffer: ReferenceWritableKeyPath<CLIProcess, Data> & Sendable
  ) {
    let handle = pipe.fileHandleForReading
    let reader = Thread { [weak self] in
      while true {
        let data = handle.availableData
        guard !data.isEmpty, let self else { return }
        self.lock.lock()
        self[keyPath: buffer].append(data)
        self.lock.unlock()
      }
    }
    reader.start()
  }

  deinit {
    stop()
  }

  /// The complete lines printed so far.
  public var lines: [String] {
    lock.lock()
    defer { lock.unlock() }
    let text = String(decoding: buffer, as: UTF8.self)
    var lines = text.components(separatedBy: "\n")
    lines.removeLast()
    return lines
  }

  /// Everything printed on standard error so far.
  public var standardError: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: errorBuffer, as: UTF8.self)
  }

  /// Waits until at least `count` lines were printed; returns them, or throws after `timeout`.
  @discardableResult
  public func waitForLines(_ count: Int, timeout: TimeInterval = 30) throws -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let current = lines
      if current.count >= count { return current }
      Thread.sleep(forTimeInterval: 0.01)
    }
    throw CLIRunnerError("Waited \(timeout) s for \(count) lines; got \(lines.count): \(lines)")
  }

  /// Whether the process still runs.
  public var isRunning: Bool { process.isRunning }

  /// Ends the process.
  public func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }
}

private func cliEnvironment(_ extra: [String: String]) -> [String: String] {
  var environment = ProcessInfo.processInfo.environment
  environment["STACKJOURNAL_DB"] = nil
  environment["NO_COLOR"] = nil
  environment["STACKJOURNAL_CLI"] = nil
  for (key, value) in extra { environment[key] = value }
  return environment
}
