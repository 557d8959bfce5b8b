import Foundation
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// One bound on the elements of a stack where stacks enter a journal: `import` refuses an
/// export holding a stack above it, appends and session creation refuse to make one, each with
/// a one-line message and nothing written.
final class StackBoundTests: StorageTestCase {
  private let time = "2025-01-01T00:00:00.000Z"

  private func element(_ id: Int) -> (state: String, stored: String) {
    let state = "{\"counter\":{\"_0\":{\"count\":\(id)}}}"
    return (
      "{\"id\":\(id),\"state\":\(state)}",
      "{\"caseName\":\"counter\",\"id\":\(id),\"state\":\(JSONText.literal(state))}"
    )
  }

  /// An export whose snapshot holds one stack of `count` elements, then `pushes` entries each
  /// pushing one more.
  private func export(count: Int, pushes: Int = 0) throws -> String {
    let ids = Array(0..<count)
    let state =
      "{\"path\":{\"elements\":[\(ids.map { element($0).state }.joined(separator: ","))],"
      + "\"nextID\":\(count)}}"
    let stacks =
      "[{\"elements\":[\(ids.map { element($0).stored }.joined(separator: ","))],"
      + "\"nextID\":\(count),\"path\":\"path\"}]"
    var lines = [
      "{\"kind\":\"header\",\"format\":\"stackjournal-session\",\"formatVersion\":1,"
        + "\"schemaVersion\":3,\"exportedAt\":\"\(time)\",\"session\":{\"id\":\"big\","
        + "\"createdAt\":\"\(time)\",\"metadata\":null,\"forkedFrom\":null,\"forkedAt\":null,"
        + "\"headSequence\":\(pushes),\"baseSequence\":0},"
        + "\"payloadVersions\":{\"min\":1,\"max\":1},\"entries\":\(pushes),\"snapshots\":1}",
      "{\"kind\":\"snapshot\",\"sequence\":0,\"version\":1,\"recordedAt\":\"\(time)\","
        + "\"state\":\(state),\"stacks\":\(stacks)}",
    ]
    for sequence in stride(from: 1, through: pushes, by: 1) {
      let id = count + sequence - 1
      let after = (0...id).map(String.init).joined(separator: ",")
      lines.append(
        "{\"kind\":\"entry\",\"sequence\":\(sequence),\"recordedAt\":\"\(time)\","
          + "\"type\":\"push\",\"version\":1,\"payload\":{\"push\":{}},\"delta\":{\"changes\":"
          + "[{\"changed\":[],\"ids\":[\(after)],\"nextID\":\(id + 1),\"path\":\"path\","
          + "\"popped\":[],\"pushed\":[\(element(id).stored)],\"removed\":false}]}}")
    }
    let path = directory.path("stack-\(count)-\(pushes).ndjson")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  func testImportRefusesAStackAboveTheBoundWithOneLine() async throws {
    // A small bound stands for `StackRecord.maximumElements`, so the files stay small.
    let atBound = try export(count: 3)
    XCTAssertNoThrow(try SessionExportFile.read(path: atBound, maximumStackElements: 3))
    let inSnapshot = try export(count: 4)
    let snapshot = await assertStorageError(.stackTooLarge) {
      try SessionExportFile.read(path: inSnapshot, maximumStackElements: 3)
    }
    XCTAssertEqual(
      snapshot?.message,
      "Line 2 of \(inSnapshot) holds the stack `path` with 4 elements, more than the 3 one "
        + "stack may hold; nothing was imported.")
    let pushed = try export(count: 3, pushes: 1)
    let entry = await assertStorageError(.stackTooLarge) {
      try SessionExportFile.read(path: pushed, maximumStackElements: 3)
    }
    XCTAssertEqual(entry?.message.hasPrefix("Line 3 of \(pushed) holds the stack `path`"), true)
    for error in [snapshot, entry] {
      XCTAssertEqual(error?.message.contains("\n"), false, error?.message ?? "")
    }
    // The default bound is the documented one.
    XCTAssertNoThrow(try SessionExportFile.read(path: inSnapshot))
    XCTAssertEqual(StackRecord.maximumElements, 100_000)
  }

  func testAppendsAndSessionCreationRefuseAStackAboveTheBound() async throws {
    let limit = StackRecord.maximumElements
    let elements = (0...limit).map {
      StoredElement(id: StackElementID(generation: $0), caseName: nil, state: "{}")
    }
    let tooLarge = StackRecord(
      path: "path", nextID: StackElementID(generation: limit + 1), elements: elements)
    try await forEachBackend { journal, backend in
      let created = await assertStorageError(.stackTooLarge) {
        try await journal.createSession(
          "big", initial: EncodedState(json: Data("{}".utf8), stacks: [tooLarge]), version: 1,
          metadata: nil)
      }
      XCTAssertEqual(created?.message.contains("more than the \(limit) one stack"), true)
      let sessionResult = try await journal.session("big")
      XCTAssertNil(sessionResult, backend)

      _ = try await journal.createSession(
        "s", initial: StateEncoding.encode(Root()), version: 1, metadata: nil)
      let push = StackChange(
        path: "path", nextID: tooLarge.nextID, ids: tooLarge.ids, pushed: elements)
      let appended = await assertStorageError(.stackTooLarge) {
        try await journal.append(
          session: "s", expectedSequence: 0,
          JournalEntryDelta(
            type: "push", version: 1, payload: Data("{}".utf8),
            delta: StackDelta(changes: [push])))
      }
      XCTAssertEqual(appended?.message.contains("\n"), false, appended?.message ?? "")
      let headSequenceResult = try await journal.headSequence(session: "s")
      XCTAssertEqual(headSequenceResult, 0, backend)
    }
  }
}
