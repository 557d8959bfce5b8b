import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered writer to standard output or standard error that knows whether it may colour.
final class Terminal: @unchecked Sendable {
  /// Standard output.
  static let standardOutput = Terminal(descriptor: STDOUT_FILENO)
  /// Standard error.
  static let standardError = Terminal(descriptor: STDERR_FILENO, buffered: false)

  /// Whether the output is a terminal and `NO_COLOR` is not set.
  let colors: Bool
  /// Whether the output is a terminal.
  let isTerminal: Bool
  private let descriptor: Int32
  private let buffered: Bool
  private var buffer: [UInt8] = []
  private let lock = NSLock()

  init(descriptor: Int32, buffered: Bool = true) {
    self.descriptor = descriptor
    self.buffered = buffered
    self.isTerminal = isatty(descriptor) == 1
    let environment = ProcessInfo.processInfo.environment
    self.colors =
      isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    buffer.reserveCapacity(1 << 16)
  }

  /// Writes text; buffered output is flushed when the buffer fills or ``flush()`` is called.
  func write(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    buffer.append(contentsOf: text.utf8)
    if !buffered || buffer.count >= 1 << 16 { flushLocked() }
  }

  /// Writes a line.
  func line(_ text: String = "") {
    write(text + "\n")
  }

  /// Writes everything buffered.
  func flush() {
    lock.lock()
    defer { lock.unlock() }
    flushLocked()
  }

  private func flushLocked() {
    var offset = 0
    buffer.withUnsafeBytes { raw in
      while offset < raw.count {
        let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          // The reader went away (a closed pipe): stop quietly, as `cat` does.
          exit(0)
        }
        offset += written
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Text in a style, when colours are on.
  func styled(_ text: String, _ style: Style) -> String {
    colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
  }

  /// An ANSI text style.
  enum Style: String {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case cyan = "36"
  }
}
