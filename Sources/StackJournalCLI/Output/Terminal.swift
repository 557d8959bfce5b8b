import ArgumentParser
import Foundation
import StackJournalCore

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

  /// Writes bytes exactly as given (a page), through the buffer.
  func write(_ bytes: Data) {
    lock.lock()
    defer { lock.unlock() }
    buffer.append(contentsOf: bytes)
    if !buffered || buffer.count >= 1 << 16 { flushLocked() }
  }

  /// Writes a line for people: control and other non-printable characters in it are shown
  /// escaped (see ``printable(_:keepingStyles:)``), so text read from a journal can neither
  /// move the cursor, restyle or hide text, retitle the window nor break a table. Only the
  /// colours ``styled(_:_:)`` adds pass, and only when colours are on.
  func line(_ text: String = "") {
    write(Self.printable(text, keepingStyles: colors) + "\n")
  }

  /// Writes a line exactly as given: one JSON document or JSON line.
  func rawLine(_ text: String) {
    write(text + "\n")
  }

  /// Text with every character that is not printable escaped as `\u{…}`, newlines aside: ESC
  /// and every other C0 and C1 control included, so no sequence in the text reaches the
  /// terminal. The styles ``styled(_:_:)`` added become their colour sequences with
  /// `keepingStyles`, and are left out without.
  static func printable(_ text: String, keepingStyles: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: { $0 != "\n" && !SessionID.isPrintableScalar($0) })
    else { return text }
    // Each part after the first starts with a style's code and `m`, the rest of a mark.
    var parts = text.components(separatedBy: styleMark)
    for index in parts.indices.dropFirst() where !keepingStyles {
      parts[index] = String(parts[index].drop { $0 != "m" }.dropFirst())
    }
    return parts.map { escaped($0) }.joined(separator: keepingStyles ? "\u{1B}[" : "")
  }

  /// `text` with every character that is not printable escaped, newlines aside unless
  /// `keepingNewlines` is false (text that must stay on its line).
  static func escaped(_ text: String, keepingNewlines: Bool = true) -> String {
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if (keepingNewlines && scalar == "\n") || SessionID.isPrintableScalar(scalar) {
        result.append(scalar)
      } else {
        result.append(contentsOf: SessionID.escapedScalar(scalar).unicodeScalars)
      }
    }
    return String(result)
  }

  /// What stands for the `ESC [` of a style ``styled(_:_:)`` adds, until
  /// ``printable(_:keepingStyles:)`` turns it into the sequence: two noncharacters (U+FDD0,
  /// U+FDD1) around a number drawn when the process starts. Text read from a journal cannot
  /// know the number, so it can never pass a sequence of its own off as one of these; its ESC
  /// is escaped like any other control.
  private static let styleMark =
    String(Unicode.Scalar(0xFDD0)!) + String(UInt64.random(in: .min ... .max), radix: 36)
    + String(Unicode.Scalar(0xFDD1)!)

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

  /// Text in a style, when colours are on: marked so that ``line(_:)`` writes the style's
  /// sequences around it (see ``printable(_:keepingStyles:)``).
  func styled(_ text: String, _ style: Style) -> String {
    colors ? Self.styleMark + style.rawValue + "m" + text + Self.styleMark + "0m" : text
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
