import Foundation
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackStorage

/// What an import's verdict says of limits a target's columns set, and of times.
final class ImportVerdictTests: StorageTestCase {
  /// An export of a session with one entry of payload version `version`, recorded at `t0` in a
  /// session created at `created`.
  private func export(version: Int, created: Date, entryAt t0: Date) async throws
    -> SessionExportFile
  {
    let journal = try makeJournal(.onDisk)
    defer { try? journal.close() }
    _ = try journal.createSession(
      "s", initial: StateEncoding.encode(Root()), version: version, at: created)
    var root = Root()
    root.tabA.append(.home)
    _ = try await journal.append(
      session: "s", expectedSequence: 0, .test("push", version: version, state: root, at: t0))
    let file = directory.path("s-\(UUID().uuidString).ndjson")
    var text = Data()
    _ = try await SessionExporter().export("s", of: journal) { text.append($0) }
    try text.write(to: URL(fileURLWithPath: file))
    return try SessionExportFile.read(path: file)
  }

  /// A PostgreSQL target's `version` columns are 32 bits: a larger payload version is
  /// impossible there, where it would be clamped, and fine in SQLite.
  func testAPayloadVersionTheTargetCannotHoldIsImpossible() async throws {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let file = try await export(version: Int(Int32.max) + 1, created: t0, entryAt: t0)
    let narrow = ImportTarget(
      schemaVersion: 1, payloadVersion: nil, existingSessions: [],
      comparesSchemaVersions: false, payloadVersionRange: Int(Int32.min)...Int(Int32.max))
    let verdict = file.verdict(into: narrow, as: nil, payloadVersion: nil)
    XCTAssertEqual(verdict.level, .impossible, "\(verdict.reasons)")
    XCTAssertTrue(verdict.reasons.contains { $0.message.contains("outside -2147483648…") })
    XCTAssertEqual(file.verdict(into: .newFile, as: nil, payloadVersion: nil).level, .fine)
  }

  /// A session created after every one of its entries (the clock went back): risky, naming
  /// the lines; one created before them is fine.
  func testACreationAfterEveryEntryIsRisky() async throws {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let late = try await export(version: 1, created: t0.addingTimeInterval(60), entryAt: t0)
    let verdict = late.verdict(into: .newFile, as: nil, payloadVersion: nil)
    XCTAssertEqual(verdict.level, .risky, "\(verdict.reasons)")
    let reason = "later than every entry (the latest, line 3"
    XCTAssertTrue(
      verdict.reasons.contains { $0.message.contains(reason) }, "\(verdict.reasons)")
    let early = try await export(version: 1, created: t0, entryAt: t0.addingTimeInterval(1))
    XCTAssertEqual(early.verdict(into: .newFile, as: nil, payloadVersion: nil).level, .fine)
  }
}
