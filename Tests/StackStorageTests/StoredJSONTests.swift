import Foundation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// One bound on nesting where JSON enters a journal: metadata, payloads and states nested
/// deeper than `JSONText.maximumNesting` are refused by the append or session creation that
/// brings them, so no reader of a sound journal meets them.
final class StoredJSONTests: StorageTestCase {
  private func nested(_ depth: Int) -> Data {
    Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
  }

  func testJSONNestedDeeperThanTheBoundIsRefusedWhereItEntersAndTheBoundItselfIsKept() async throws {
    let limit = JSONText.maximumNesting
    try await forEachBackend(.init(snapshotInterval: 1)) { journal, backend in
      let metadata = await assertStorageError(.invalidData) {
        try await journal.createSession(
          "deep", initial: StateEncoding.encode(Root()), version: 1, metadata: nested(10_000))
      }
      XCTAssertEqual(
        metadata?.message.contains("deeper than \(limit) levels"), true, metadata?.message ?? "")
      let sessionResult = try await journal.session("deep")
      XCTAssertNil(sessionResult, backend)

      _ = try await journal.createSession(
        "s", initial: StateEncoding.encode(Root()), version: 1, metadata: nested(limit))
      let state = try StateEncoding.encode(Root())
      func entry(payload: Data) -> JournalEntryDelta {
        JournalEntryDelta(
          type: "x", version: 1, payload: payload, delta: StackDelta(),
          snapshot: EncodedState(json: state.json, stacks: state.stacks))
      }
      let payload = await assertStorageError(.invalidData) {
        try await journal.append(session: "s", expectedSequence: 0, entry(payload: nested(limit + 1)))
      }
      XCTAssertEqual(
        payload?.message.contains("deeper than \(limit) levels"), true, payload?.message ?? "")
      let headSequenceResult = try await journal.headSequence(session: "s")
      XCTAssertEqual(headSequenceResult, 0, backend)
      let appendResult = try await journal.append(session: "s", expectedSequence: 0, entry(payload: nested(limit)))
      XCTAssertEqual(
        appendResult, 1,
        backend)
    }
  }

  func testTheNestingOfJSONIsCountedOutsideStringsOnly() {
    XCTAssertEqual(JSONText.nesting(of: Array("{\"a\":[1,{\"b\":[]}]}".utf8)), 4)
    XCTAssertEqual(JSONText.nesting(of: Array("[\"[[[\\\"[[\"]".utf8)), 1)
    XCTAssertEqual(JSONText.nesting(of: Array("42".utf8)), 0)
    XCTAssertEqual(JSONText.storageProblem(Data("\"a\u{0}b\"".utf8)), "contains a NUL character")
    XCTAssertEqual(JSONText.storageProblem(Data([0x22, 0xFF, 0x22])), "is not UTF-8 text")
    XCTAssertEqual(JSONText.storageProblem(Data("[}".utf8)), "is not JSON")
    XCTAssertNil(JSONText.storageProblem(Data("{\"a\":\"[\"}".utf8)))
  }
}
