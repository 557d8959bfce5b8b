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
    let writerFailures = LockedList()
    let writers = DispatchGroup()
    for writer in 0..<3 {
      DispatchQueue.global().async(group: writers) {
        var round = 0
        while !stop.isSet {
          round += 1
          // A session of its own: writers that picked the same one would refuse each other.
          let own = ["--session", "writer-\(writer)-\(round)"]
          guard
            let result = try? runCLI(
              ["demo", "--actions", "1", "--db", path] + own, timeout: 60)
          else { continue }
          if result.status != 0 { writerFailures.append(result.stderr) }
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
    XCTAssertEqual(writerFailures.items, [], "writers failed while others wrote and read")
  }
}

/// Texts appended from several threads.
private final class LockedList: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [String] = []

  var items: [String] { lock.withLock { values } }

  func append(_ value: String) { lock.withLock { values.append(value) } }
}

/// A flag set once, read from several threads.
private final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }

  func set() { lock.withLock { value = true } }
}
