import ArgumentParser
import Foundation
import StackStorage

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

  /// Writes text exactly as given (JSON, exports); buffered output is flushed when the buffer
  /// fills or ``flush()`` is called.
  func write(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    buffer.append(contentsOf: text.utf8)
    if !buffered || buffer.count >= 1 << 16 { flushLocked() }
  }

  /// Writes a line for people: control and other non-printable characters in it are shown
  /// escaped (see ``printable(_:keepingStyles:)``), so text read from a journal can neither
  /// move the cursor, retitle the window nor break a table. Only the colours ``styled(_:_:)``
  /// adds pass, and only when colours are on.
  func line(_ text: String = "") {
    write(Self.printable(text, keepingStyles: colors) + "\n")
  }

  /// Writes a line exactly as given: one JSON document or JSON line.
  func rawLine(_ text: String) {
    write(text + "\n")
  }

  /// Text with every character that is not printable escaped as `\u{…}`, newlines aside;
  /// with `keepingStyles`, the colour sequences `ESC [ digits ; … m` pass unchanged.
  static func printable(_ text: String, keepingStyles: Bool = false) -> String {
    let scalars = Array(text.unicodeScalars)
    guard scalars.contains(where: { $0 != "\n" && !SessionID.isPrintableScalar($0) }) else {
      return text
    }
    var result = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\n" || SessionID.isPrintableScalar(scalar) {
        result.append(scalar)
        index += 1
        continue
      }
      if keepingStyles, scalar == "\u{1B}", let end = styleEnd(scalars, from: index) {
        result.append(contentsOf: scalars[index...end])
        index = end + 1
        continue
      }
      let escape = "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      result.append(contentsOf: escape.unicodeScalars)
      index += 1
    }
    return String(result)
  }

  /// The index of the `m` ending a colour sequence that starts at `start`, if one does.
  private static func styleEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
    guard start + 2 < scalars.count, scalars[start + 1] == "[" else { return nil }
    var index = start + 2
    while index < scalars.count, index - start < 16 {
      let scalar = scalars[index]
      if scalar == "m" { return index > start + 2 ? index : nil }
      guard ("0"..."9").contains(scalar) || scalar == ";" else { return nil }
      index += 1
    }
    return nil
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
          let code = errno
          if code == EINTR { continue }
          if descriptor == STDERR_FILENO {
            // Nowhere to report it; the exit status still tells.
            offset = raw.count
            break
          }
          // The reader went away (a closed pipe): stop quietly, as `cat` does.
          if code == EPIPE { exit(0) }
          // Anything else (a full disk, an I/O error) loses output: say so and fail, so a
          // script never takes a cut-short output for a whole one.
          Terminal.standardError.write(
            "Error: cannot write to standard output: \(String(cString: strerror(code))); the "
              + "output is incomplete.\n")
          exit(ExitCode.trouble.rawValue)
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
