// Production binaries never link a test framework: only test targets bring
// `StackNavigationTesting`, and with it XCTest, Testing and IssueReporting's test support.
import Foundation
import StackJournalTestSupport
import Testing

@Suite struct ProductionLinkTests {
  /// Name prefixes: SwiftPM may build a library under a suffixed name (`…-tool.so`).
  static let testLibraries = ["libXCTest", "libTesting", "libIssueReportingTestSupport"]

  @Test(arguments: ["stackjournal", "stackjournal-recorder"])
  func linksNoTestFramework(_ executable: String) throws {
    let needed = try neededLibraries(of: builtExecutable(executable))
    #expect(needed.contains { $0.hasPrefix("libswiftCore.so") }, "readelf listed \(needed)")
    for library in Self.testLibraries {
      #expect(!needed.contains { $0.hasPrefix(library) }, "\(executable) links \(library)")
    }
  }

  @Test func theTestBundleDoesLinkTheTestSupport() throws {
    // The check above can fail: the test bundle itself links what production must not.
    let needed = try neededLibraries(of: URL(fileURLWithPath: CommandLine.arguments[0]))
    #expect(
      needed.contains { $0.hasPrefix("libIssueReportingTestSupport") }, "readelf listed \(needed)")
  }

  /// The shared libraries an ELF file names as needed, read with `readelf -d`.
  func neededLibraries(of file: URL) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["readelf", "-d", file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
    return String(decoding: output, as: UTF8.self)
      .split(separator: "\n")
      .filter { $0.contains("(NEEDED)") }
      .compactMap { line in
        line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
      }
  }
}
