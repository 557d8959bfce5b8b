import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class SessionTests: StorageTestCase {
  func testCreateListAndMetadata() async throws {
    try await forEachBackend { journal, _ in
      let t0 = Date(timeIntervalSince1970: 1_700_000_000.1234)
      let info = try await journal.createSession(
        "first", initial: StateEncoding.encode(Root()), version: 1,
        metadata: Data(#"{"user":"ada"}"#.utf8), forkedFrom: nil, at: t0)
      XCTAssertEqual(info.id, "first")
      XCTAssertEqual(info.createdAt, Timestamp.rounded(t0))
      XCTAssertEqual(info.headSequence, 0)
      XCTAssertEqual(info.entryCount, 0)
      XCTAssertNil(info.firstActivity)
      _ = try await journal.createSession(
        "second", initial: StateEncoding.encode(Root()), version: 1,
        metadata: nil, forkedFrom: nil, at: t0.addingTimeInterval(60))

      var root = Root()
      for sequence in 0..<3 {
        root.tabB.append(.home)
        _ = try await journal.append(
          session: "first", expectedSequence: Int64(sequence),
          .test("push", state: root, at: t0.addingTimeInterval(Double(sequence + 1))))
      }

      let sessions = try await journal.sessions()
      XCTAssertEqual(sessions.map(\.id), ["first", "second"])
      let first = sessions[0]
      XCTAssertEqual(first.entryCount, 3)
      XCTAssertEqual(first.headSequence, 3)
      XCTAssertEqual(first.firstActivity, Timestamp.rounded(t0.addingTimeInterval(1)))
      XCTAssertEqual(first.lastActivity, Timestamp.rounded(t0.addingTimeInterval(3)))
      XCTAssertEqual(first.metadata, Data(#"{"user":"ada"}"#.utf8))
      XCTAssertEqual(sessions[1].entryCount, 0)
      XCTAssertNil(sessions[1].metadata)

      try await journal.setMetadata(Data(#"{"user":"grace"}"#.utf8), session: "second")
      let sessionResult9 = try await journal.session("second")?.metadata
      XCTAssertEqual(sessionResult9, Data(#"{"user":"grace"}"#.utf8))
      try await journal.setMetadata(nil, session: "first")
      let sessionResult8 = try await journal.session("first")?.metadata
      XCTAssertNil(sessionResult8)
      let sessionResult7 = try await journal.session("third")
      XCTAssertNil(sessionResult7)
      await assertStorageError(.unknownSession) { try await journal.setMetadata(nil, session: "third") }
      await assertStorageError(.unknownSession) { try await journal.deleteSession("third") }
      guard let journal = journal as? SQLiteJournal else { return }
      let stored = try await journal.database.read { db in
        try String.fetchOne(
          db, sql: "SELECT json_extract(metadata, '$.user') FROM sessions WHERE id = 'second'")
      }
      XCTAssertEqual(stored, "grace")
    }
  }

  func testDeltaAppendsRefusePayloadsAndSnapshotStatesThatAreNotJSON() async throws {
    try await forEachBackend(.init(snapshotInterval: 1)) { journal, backend in
      _ = try await journal.createSession("d", initial: StateEncoding.encode(Root()), version: 1)
      let state = try StateEncoding.encode(Root())
      func entry(payload: String, state json: String) -> JournalEntryDelta {
        JournalEntryDelta(
          type: "x", version: 1, payload: Data(payload.utf8), delta: StackDelta(),
          snapshot: EncodedState(json: Data(json.utf8), stacks: state.stacks))
      }
      let payload = await assertStorageError(.invalidData) {
        try await journal.append(session: "d", expectedSequence: 0, entry(payload: "hello", state: "{}"))
      }
      XCTAssertEqual(
        payload?.message.hasPrefix("The payload of the `x` action is not JSON"), true, backend)
      let snapshot = await assertStorageError(.invalidData) {
        try await journal.append(session: "d", expectedSequence: 0, entry(payload: "{}", state: "{"))
      }
      XCTAssertEqual(
        snapshot?.message.hasPrefix("The state after `x` is not JSON"), true, backend)
      let headSequenceResult1 = try await journal.headSequence(session: "d")
      XCTAssertEqual(headSequenceResult1, 0, backend)
      let json = String(decoding: state.json, as: UTF8.self)
      let appendResult = try await journal.append(session: "d", expectedSequence: 0, entry(payload: "{}", state: json))
      XCTAssertEqual(
        appendResult,
        1, backend)
    }
  }

  func testMetadataPayloadsAndStatesThatAreNotJSONAreRefused() async throws {
    try await forEachBackend { journal, _ in
      let refused = await assertStorageError(.invalidData) {
        try await journal.createSession(
          "s", initial: StateEncoding.encode(Root()), version: 1, metadata: Data("hello".utf8))
      }
      XCTAssertEqual(
        refused?.message.hasPrefix("The metadata of session s is not JSON: `hello`."), true,
        refused?.message ?? "")
      let sessionResult6 = try await journal.session("s")
      XCTAssertNil(sessionResult6)
      _ = try await journal.createSession(
        "s", initial: StateEncoding.encode(Root()), version: 1,
        metadata: Data(#"{"user":"ada"}"#.utf8))
      await assertStorageError(.invalidData) {
        try await journal.setMetadata(Data("hello".utf8), session: "s")
      }
      let sessionResult5 = try await journal.session("s")?.metadata
      XCTAssertEqual(sessionResult5, Data(#"{"user":"ada"}"#.utf8))
      await assertStorageError(.invalidData) {
        try await journal.createSession(
          "t", initial: EncodedState(json: Data("hello".utf8), stacks: []), version: 1)
      }
      let sessionResult4 = try await journal.session("t")
      XCTAssertNil(sessionResult4)

      for payload in ["hello", #"{"a":"#, "+1", "01", "1."] {
        await assertStorageError(.invalidData) {
          try await journal.append(
            session: "s", expectedSequence: 0, .test("x", payload: payload, state: Root()))
        }
      }
      let headSequenceResult = try await journal.headSequence(session: "s")
      XCTAssertEqual(headSequenceResult, 0)
      await assertStorageError(.invalidData) {
        try await journal.writeSnapshot(
          session: "s", sequence: 0, state: EncodedState(json: Data("{".utf8), stacks: []),
          version: 1)
      }

      // A JSON fragment is one JSON value, and an export of it imports again.
      try await journal.setMetadata(Data(#""note""#.utf8), session: "s")
      _ = try await journal.append(
        session: "s", expectedSequence: 0, .test("x", payload: "42", state: Root()))
      let sessionResult3 = try await journal.session("s")?.metadata
      XCTAssertEqual(sessionResult3, Data(#""note""#.utf8))
      guard let journal = journal as? SQLiteJournal else { return }
      let file = directory.path("s-\(UUID().uuidString).ndjson")
      var export = Data()
      _ = try await SessionExporter().export("s", of: journal) { export.append($0) }
      try export.write(to: URL(fileURLWithPath: file))
      let imported = try SessionImporter().importSession(
        SessionExportFile.read(path: file), as: "copy", into: journal)
      XCTAssertEqual(imported.entries, 1)
      XCTAssertEqual(try journal.session("copy")?.metadata, Data(#""note""#.utf8))
    }
  }

  func testIdentifiersAreUniqueAndForksNameTheirSource() async throws {
    try await forEachBackend { journal, _ in
      var root = Root()
      _ = try await journal.createSession("source", initial: StateEncoding.encode(root), version: 1)
      root.tabA.append(.home)
      _ = try await journal.append(session: "source", expectedSequence: 0, .test("push", state: root))
      await assertStorageError(.sessionExists) {
        try await journal.createSession("source", initial: StateEncoding.encode(Root()), version: 1)
      }
      let fork = try await journal.createSession(
        "fork", initial: StateEncoding.encode(root), version: 1, forkedFrom: ("source", 1))
      XCTAssertEqual(fork.forkedFrom, "source")
      XCTAssertEqual(fork.forkedAt, 1)
      let sessionResult2 = try await journal.session("fork")?.forkedFrom
      XCTAssertEqual(sessionResult2, "source")
      let sessionResult1 = try await journal.session("fork")?.forkedAt
      XCTAssertEqual(sessionResult1, 1)
      let headStacksResult = try await journal.headStacks(session: "fork")
      let stacksResult = try await journal.stacks(session: "source", at: 1)
      XCTAssertEqual(
        headStacksResult, stacksResult)
      await assertStorageError(.sequenceOutOfRange) {
        try await journal.createSession(
          "bad-fork", initial: StateEncoding.encode(root), version: 1, forkedFrom: ("source", 2))
      }
      await assertStorageError(.unknownSession) {
        try await journal.createSession(
          "bad-fork", initial: StateEncoding.encode(root), version: 1, forkedFrom: ("none", 0))
      }
      let sessionResult = try await journal.session("bad-fork")
      XCTAssertNil(sessionResult)
    }
  }

  func testSessionIDs() throws {
    let id: SessionID = "user-42"
    XCTAssertEqual(id.description, "user-42")
    XCTAssertEqual(try JSONEncoder().encode(id), Data(#""user-42""#.utf8))
    XCTAssertEqual(try JSONDecoder().decode(SessionID.self, from: Data(#""x""#.utf8)), "x")
    XCTAssertNotEqual(SessionID.random(), SessionID.random())
    XCTAssertEqual(SessionID.random().rawValue.count, 36)
  }

  func testTimestamps() {
    let samples: [(Double, String)] = [
      (0, "1970-01-01T00:00:00.000Z"),
      (1_738_315_800.5, "2025-01-31T09:30:00.500Z"),
      (951_782_400, "2000-02-29T00:00:00.000Z"),
      (-1.5, "1969-12-31T23:59:58.500Z"),
      (4_102_444_799.999, "2099-12-31T23:59:59.999Z"),
    ]
    for (seconds, text) in samples {
      let date = Date(timeIntervalSince1970: seconds)
      XCTAssertEqual(Timestamp.string(from: date), text)
      XCTAssertEqual(Timestamp.date(from: text), date)
    }
    XCTAssertNil(Timestamp.date(from: "2025-01-31 09:30:00"))
    XCTAssertNil(Timestamp.date(from: "2025-13-31T09:30:00.000Z"))
    let now = Date()
    XCTAssertEqual(Timestamp.date(from: Timestamp.string(from: now)), Timestamp.rounded(now))
  }
}
