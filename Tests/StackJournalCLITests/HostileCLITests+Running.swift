import Foundation
import StackJournalTestSupport
import XCTest

/// Reads a FIFO on a thread of its own until its writer closes it.
final class FIFOReader: @unchecked Sendable {
  private let path: String
  private let lock = NSLock()
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)
  private var finished = false

  init(_ path: String) {
    self.path = path
    Thread { [self] in
      let descriptor = open(path, O_RDONLY)
      if descriptor >= 0 {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
          let count = read(descriptor, &buffer, buffer.count)
          if count <= 0 { break }
          lock.lock()
          data.append(contentsOf: buffer[0..<count])
          lock.unlock()
        }
        close(descriptor)
      }
      done.signal()
    }.start()
  }

  /// Waits (10 s at most) until the writer closed the FIFO and returns what it wrote; a reader
  /// still waiting for a writer is released first.
  @discardableResult
  func finish() -> String {
    lock.lock()
    let first = !finished
    finished = true
    lock.unlock()
    if first {
      // Opening for writing without blocking succeeds only while the reader waits: it then
      // sees the end of the file.
      let descriptor = open(path, O_WRONLY | O_NONBLOCK)
      if descriptor >= 0 { close(descriptor) }
      _ = done.wait(timeout: .now() + 10)
    }
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: data, as: UTF8.self)
  }
}

/// Writes bytes into a FIFO on a thread of its own, once, then closes it.
final class FIFOWriter: @unchecked Sendable {
  private let path: String
  private let done = DispatchSemaphore(value: 0)

  init(_ path: String, _ data: Data) {
    self.path = path
    Thread { [self] in
      let descriptor = open(path, O_WRONLY)
      if descriptor >= 0 {
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
      }
      done.signal()
    }.start()
  }

  /// Waits (10 s at most) for the writer to end, releasing it when nobody opened the FIFO.
  func finish() {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK)
    if descriptor >= 0 {
      _ = done.wait(timeout: .now() + 10)
      close(descriptor)
    }
  }
}

extension HostileCLITests {
  /// Runs the built binary with `input` on its standard input through a pipe (written, then
  /// closed), under `timeout`.
  func runCLIReading(
    _ input: Data, _ arguments: [String], timeout: TimeInterval = 60
  ) throws -> CLIResult {
    let process = Process()
    process.executableURL = try stackjournalExecutable()
    process.arguments = arguments
    process.environment = testEnvironment()
    let stdin = Pipe()
    let outURL = directory.url.appendingPathComponent(".stdout-\(UUID().uuidString)")
    let errURL = directory.url.appendingPathComponent(".stderr-\(UUID().uuidString)")
    defer {
      try? FileManager.default.removeItem(at: outURL)
      try? FileManager.default.removeItem(at: errURL)
    }
    FileManager.default.createFile(atPath: outURL.path, contents: nil)
    FileManager.default.createFile(atPath: errURL.path, contents: nil)
    process.standardInput = stdin
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    try process.run()
    let writer = stdin.fileHandleForWriting
    Thread {
      try? writer.write(contentsOf: input)
      try? writer.close()
    }.start()
    try wait(for: process, timeout: timeout, arguments)
    return CLIResult(
      exitStatus: process.terminationStatus,
      standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
      standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
  }

  /// Runs the built binary on a pseudo-terminal (`script`) with `TERM=xterm`, so it colours;
  /// `stdout` is everything the terminal showed.
  func runCLIOnATerminal(_ arguments: [String], timeout: TimeInterval = 60) throws -> CLIResult {
    let command = ([try stackjournalExecutable().path] + arguments).map {
      "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
    var environment = testEnvironment()
    environment["TERM"] = "xterm"
    process.environment = environment
    let outURL = directory.url.appendingPathComponent(".terminal-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: outURL) }
    FileManager.default.createFile(atPath: outURL.path, contents: nil)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = FileHandle.nullDevice
    try process.run()
    try wait(for: process, timeout: timeout, arguments)
    let shown = String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
    return CLIResult(
      exitStatus: process.terminationStatus,
      standardOutput: shown.replacingOccurrences(of: "\r\n", with: "\n"), standardError: "")
  }

  private func testEnvironment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for name in ["STACKJOURNAL_DB", "NO_COLOR", "STACKJOURNAL_CLI"] { environment[name] = nil }
    return environment
  }

  private func wait(for process: Process, timeout: TimeInterval, _ arguments: [String]) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() > deadline {
        process.terminate()
        process.waitUntilExit()
        throw CLIRunnerError(
          "stackjournal \(arguments.joined(separator: " ")) ran past \(timeout) s")
      }
      Thread.sleep(forTimeInterval: 0.005)
    }
    process.waitUntilExit()
  }
}
