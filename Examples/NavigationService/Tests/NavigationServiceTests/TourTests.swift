import Foundation
import Testing

/// One step of the README's tour: a shell command and the output the README shows for it, or a
/// restart of the service on the same file.
private enum TourStep {
  case command(String, expected: String)
  case restart
}

/// The steps of the README's "A tour" section, and the port its commands use.
private func tourSteps() throws -> (steps: [TourStep], port: String) {
  let readme = try String(
    contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"),
    encoding: .utf8)
  let section = try #require(readme.components(separatedBy: "\n## A tour\n").dropFirst().first)
  let block = try #require(section.components(separatedBy: "```text\n").dropFirst().first)
    .components(separatedBy: "\n```").first ?? ""
  let port = try #require(
    block.range(of: #"127\.0\.0\.1:\d+"#, options: .regularExpression).map {
      String(block[$0].split(separator: ":").last!)
    })
  var steps: [TourStep] = []
  var command: String?
  var output: [String] = []
  func flush() {
    if let command { steps.append(.command(command, expected: output.joined(separator: "\n"))) }
    command = nil
    output = []
  }
  for line in block.components(separatedBy: "\n") {
    if line.hasPrefix("$ ") {
      flush()
      command = String(line.dropFirst(2))
    } else if line.hasPrefix("# ") {
      flush()
      if line.contains("started again") { steps.append(.restart) }
    } else {
      output.append(line)
    }
  }
  flush()
  return (steps, port)
}

/// An HTTP reply as the README shows it: CRLF as LF, without the `Date` header, trimmed.
private func normalized(_ text: String) -> String {
  text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
    .filter { !$0.hasPrefix("Date: ") }.joined(separator: "\n")
    .trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite("the README's tour")
struct TourTests {
  @Test("every command of the README's tour, run against the built service, prints what it shows")
  func tourAsWritten() async throws {
    let (steps, port) = try tourSteps()
    #expect(steps.count >= 15, "the tour has \(steps.count) steps")
    let folder = try TemporaryFolder()
    var service = try ServiceProcess(database: folder.database)
    for step in steps {
      switch step {
      case .restart:
        #expect(service.terminate() == 0)
        service = try ServiceProcess(database: folder.database)
      case .command(let command, let expected):
        let local = command.replacingOccurrences(
          of: "127.0.0.1:\(port)", with: "127.0.0.1:\(service.port)")
        let result = try runChild(
          URL(fileURLWithPath: "/bin/bash"), ["-c", local], timeout: .seconds(30))
        #expect(result.status == 0, "\(command): \(result.standardError)")
        #expect(
          normalized(result.standardOutput) == normalized(expected),
          "\(command)\nprinted:\n\(result.standardOutput)\nREADME:\n\(expected)")
      }
    }
    #expect(service.terminate() == 0)
  }
}
