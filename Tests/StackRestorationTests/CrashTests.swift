import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

/// Kills a recording process at random moments and checks what it leaves behind.
final class CrashTests: XCTestCase {
  func testKilledRecorderLeavesAVerifiableJournalWithEveryAcknowledgedAction() async throws {
    let recorder = try builtExecutable("stackjournal-recorder")
    let directory = try TemporaryDirectory()
    let path = directory.path("crash.sqlite")
    var generator = SeededGenerator(seed: 2026)
    var acknowledgedHead: Int64 = 0
    var kills = 0

    for round in 0..<12 {
      let process = Process()
      process.executableURL = recorder
      process.arguments = [path, "crashy", "\(round + 1)"]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()

      // Kill it at a random moment once it has started recording.
      let reader = output.fileHandleForReading
      var received = Data()
      while !received.contains(UInt8(ascii: "\n")) {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        received.append(chunk)
      }
      usleep(UInt32.random(in: 5_000...150_000, using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      XCTAssertEqual(process.terminationReason, .uncaughtSignal, "round \(round)")
      kills += 1
      received.append(reader.readDataToEndOfFile())

      let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
      let acknowledged = lines.compactMap { line -> Int64? in
        guard line.hasPrefix("acknowledged ") else { return nil }
        return Int64(line.dropFirst("acknowledged ".count))
      }
      acknowledgedHead = max(acknowledgedHead, acknowledged.last ?? 0)

      // The file opens, holds every acknowledged action, and verifies clean.
      let journal = try SQLiteJournal(path: path)
      let head = try journal.headSequence(session: "crashy")
      XCTAssertGreaterThanOrEqual(head, acknowledgedHead, "round \(round)")
      let storage = try journal.verifyStorage()
      XCTAssertTrue(storage.isClean, "round \(round): \(storage)")
      let replay = try await Replayer(journal: journal) { RootFeature() }.verify(session: "crashy")
      XCTAssertTrue(replay.isClean, "round \(round): \(String(describing: replay.divergence))")
      acknowledgedHead = head
    }
    XCTAssertEqual(kills, 12)
    XCTAssertGreaterThan(acknowledgedHead, 12, "the recorders made progress")
  }
}
