import Foundation
import Testing

/// The example's folder and the repository's, from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()
private let repositoryRoot = packageRoot.deletingLastPathComponent().deletingLastPathComponent()

private func readme() throws -> String {
  try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
}

/// Every match of a pattern's first group in a text.
private func matches(_ pattern: String, in text: String) throws -> [String] {
  let regex = try NSRegularExpression(pattern: pattern)
  return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
    Range($0.range(at: 1), in: text).map { String(text[$0]) }
  }
}

@Suite("the example's README and command line")
struct ReadmeTests {
  @Test("--help prints the usage on standard output and exits 0; a bad argument exits 2")
  func help() throws {
    let executable = try builtExecutable("navigation-service")
    let help = try runChild(executable, ["--help"], timeout: .seconds(30))
    #expect(help.status == 0, "\(help.standardError)")
    #expect(help.standardOutput.contains("usage: navigation-service"), "\(help.standardOutput)")
    #expect(help.standardOutput.contains("--db"))
    let bad = try runChild(executable, ["--bogus"], timeout: .seconds(30))
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("usage"))
  }

  @Test("README: one service port throughout, every error code in the table, the build times, PGPASSWORD")
  func readmeFacts() throws {
    let text = try readme()
    let ports = Set(
      try matches(#"http://(?:127\.0\.0\.1|localhost):(\d{2,5})"#, in: text)
        + matches(#"--port (\d{2,5})"#, in: text))
    #expect(ports.count == 1, "ports in the README: \(ports.sorted())")
    // Every code the service can answer with, as its sources spell it.
    let sources = try FileManager.default.contentsOfDirectory(
      at: packageRoot.appendingPathComponent("Sources/NavigationService"),
      includingPropertiesForKeys: nil)
    var codes: Set<String> = []
    for file in sources where file.pathExtension == "swift" {
      let source = try String(contentsOf: file, encoding: .utf8)
      codes.formUnion(try matches(#"code: "([A-Za-z]+)""#, in: source))
    }
    #expect(codes.count >= 10, "\(codes)")
    let errors = try #require(text.range(of: "## Errors")).upperBound
    let table = String(text[errors...]).components(separatedBy: "\n## ").first ?? ""
    for code in codes.sorted() {
      #expect(table.contains("`\(code)`"), "the error table lacks `\(code)`")
    }
    for status in ["400", "404", "409", "413", "422", "431", "500", "503"] {
      #expect(table.contains("| \(status) "), "the error table lacks status \(status)")
    }
    #expect(text.contains("PGPASSWORD"))
    #expect(text.range(of: #"cold build"#, options: .caseInsensitive) != nil)
    #expect(text.contains("planChosen") && text.contains("submitTapped"))
  }

  @Test("scripts/postgres.sh keeps its state per user under TMPDIR, not one file per machine")
  func postgresStatePerUser() throws {
    let folder = try TemporaryFolder()
    var environment = ProcessInfo.processInfo.environment
    environment["STACKJOURNAL_PG_STATE"] = nil
    environment["TMPDIR"] = folder.url.path
    let result = try runChild(
      URL(fileURLWithPath: "/bin/bash"),
      [repositoryRoot.appendingPathComponent("scripts/postgres.sh").path, "url"],
      environment: environment, timeout: .seconds(30))
    // No cluster was started under this TMPDIR: `url` fails, naming the state file it looked for.
    #expect(result.status != 0)
    #expect(result.standardError.contains(folder.url.path), "\(result.standardError)")
    let user = try runChild(URL(fileURLWithPath: "/usr/bin/id"), ["-un"]).standardOutput
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(!user.isEmpty && result.standardError.contains(user), "\(result.standardError)")
  }
}
