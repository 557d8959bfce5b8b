import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

/// Inspection works while other processes write: a read command that meets the journal's files
/// in a passing state (a writer opening or closing them) waits and retries within a bound
/// instead of failing.
final class ConcurrentReadTests: CLITestCase {
  func testReadCommandsNeverFailWhileShortLivedWritersOpenAndCloseTheJournal() throws {
    let (path, session) = try makeDemo(actions: 3)
    let stop = LockedFlag()
    let writerFailures = LockedFlag()
    let writers = DispatchGroup()
    for _ in 0..<3 {
      DispatchQueue.global().async(group: writers) {
        while !stop.isSet {
          guard let result = try? runCLI(["demo", "--actions", "1", "--db", path], timeout: 60)
          else { continue }
          if result.status != 0 { writerFailures.set() }
        }
      }
    }
    var failures: [String] = []
    for round in 0..<240 {
      let command = round.isMultiple(of: 2) ? ["sessions"] : ["log", session, "-n", "3"]
      let result = try runCLI(command + ["--db", path], timeout: 60)
      if result.status != 0 { failures.append("\(command): \(result.stderr)") }
    }
    stop.set()
    XCTAssertEqual(writers.wait(timeout: .now() + 120), .success, "the writers did not stop")
    XCTAssertEqual(failures, [], "\(failures.count) of 240 reads failed")
  }
}

/// A flag set once, read from several threads.
private final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }

  func set() { lock.withLock { value = true } }
}
