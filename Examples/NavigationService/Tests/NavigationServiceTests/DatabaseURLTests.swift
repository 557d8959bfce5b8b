import Foundation
import Testing

/// Runs the service with `arguments` and expects it to exit on its own (it must not start
/// listening); returns its exit status and what it wrote to standard error.
private func runUntilExit(_ arguments: [String]) throws -> (status: Int32, error: String) {
  let process = Process()
  process.executableURL = try builtExecutable("navigation-service")
  process.arguments = arguments
  let errors = Pipe()
  process.standardError = errors
  process.standardOutput = FileHandle.nullDevice
  try process.run()
  // The service exits by itself on a refused database; a service still running after the
  // deadline is killed and the test fails on its status.
  let deadline = Date().addingTimeInterval(30)
  while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
  if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  let data = errors.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("navigation-service --db postgres://")
struct DatabaseURLTests {
  #if PostgreSQL
    @Test("a server that cannot be reached: one line saying so, exit 1, no password shown")
    func unreachableServer() throws {
      // Port 1 on loopback: nothing listens there, the connection is refused at once.
      let (status, error) = try runUntilExit([
        "--db", "postgres://someone:hunter2@127.0.0.1:1/journal", "--port", "0",
      ])
      #expect(status == 1, "\(error)")
      #expect(error.split(separator: "\n").count == 1, "\(error)")
      #expect(error.hasPrefix("navigation-service: "), "\(error)")
      #expect(error.contains("Cannot connect to PostgreSQL"), "\(error)")
      #expect(!error.contains("hunter2"), "\(error)")
    }

    @Test("a schema that is not a plain name: refused, its control characters escaped")
    func badSchema() throws {
      let (status, error) = try runUntilExit([
        "--db", "postgres://someone@127.0.0.1:1/journal?schema=a\u{1B}[31mred", "--port", "0",
      ])
      #expect(status == 1, "\(error)")
      #expect(error.split(separator: "\n").count == 1, "\(error)")
      #expect(error.contains("schema"), "\(error)")
      #expect(!error.contains("\u{1B}"), "\(error)")
    }
  #else
    @Test("a build without the PostgreSQL trait: one line saying how to build with it, exit 1")
    func noSupport() throws {
      for url in ["postgres://someone@127.0.0.1:5432/journal", "postgresql://h/journal"] {
        let (status, error) = try runUntilExit(["--db", url, "--port", "0"])
        #expect(status == 1, "\(error)")
        #expect(error.split(separator: "\n").count == 1, "\(error)")
        #expect(error.contains("--traits PostgreSQL"), "\(error)")
      }
    }
  #endif
}
