import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class UpcasterTests: StorageTestCase {
  /// Version 2 renamed `count` to `value` in counter actions; version 3 wrapped every action in
  /// `{"v3": …}` and every state in `{"state": …}`.
  static let upcasters: [PayloadUpcaster] = [
    PayloadUpcaster(kind: .action, from: 1, type: "tabA.element.counter") { data in
      Data(
        String(decoding: data, as: UTF8.self).replacingOccurrences(of: "count", with: "value").utf8)
    },
    PayloadUpcaster(kind: .action, from: 1, type: "tabA") { _ in
      Data(#"{"wrong":"the longest matching prefix wins"}"#.utf8)
    },
    PayloadUpcaster(kind: .action, from: 2) { data in
      Data("{\"v3\":".utf8) + data + Data("}".utf8)
    },
    PayloadUpcaster(kind: .state, from: 2) { data in
      Data("{\"state\":".utf8) + data + Data("}".utf8)
    },
  ]

  func testOldPayloadsAreUpcastOnReadAndTheRowsStayAsWritten() async throws {
    for backend in try await Backends.all() where backend.canReopen {
      let writer = backend.journal
      _ = try await writer.createSession("s", initial: StateEncoding.encode(Root()), version: 1)
      _ = try await writer.append(
        session: "s", expectedSequence: 0,
        .test("tabA.element.counter.set", payload: #"{"count":1}"#, version: 1, state: Root()))
      _ = try await writer.append(
        session: "s", expectedSequence: 1,
        .test("tabB.element.counter.set", payload: #"{"count":2}"#, version: 1, state: Root()))
      _ = try await writer.append(
        session: "s", expectedSequence: 2,
        .test("tabA.element.counter.set", payload: #"{"value":3}"#, version: 2, state: Root()))
      _ = try await writer.append(
        session: "s", expectedSequence: 3,
        .test("selectTab", payload: #"{"v3":{"tab":"b"}}"#, version: 3, state: Root()))

      let reader = try await backend.reopen(.init(payloadVersion: 3, upcasters: Self.upcasters))
      var payloads: [String] = []
      try await reader.entries(session: "s") { entry in
        XCTAssertEqual(entry.version, 3)
        payloads.append(String(decoding: entry.payload, as: UTF8.self))
        return true
      }
      XCTAssertEqual(
        payloads,
        [
          #"{"v3":{"value":1}}"#, #"{"v3":{"count":2}}"#, #"{"v3":{"value":3}}"#,
          #"{"v3":{"tab":"b"}}"#,
        ], backend.name)
      let snapshotResult1 = try await reader.snapshot(session: "s", atOrBelow: 0)
      let snapshot = try XCTUnwrap(snapshotResult1)
      XCTAssertEqual(snapshot.version, 3)
      XCTAssertTrue(String(decoding: snapshot.state, as: UTF8.self).hasPrefix(#"{"state":{"#))

      var raw: [Int] = []
      var rawPayloads: [String] = []
      try await backend.reopen(.init()).entries(session: "s") {
        raw.append($0.version)
        rawPayloads.append(String(decoding: $0.payload, as: UTF8.self))
        return true
      }
      XCTAssertEqual(raw, [1, 1, 2, 3], "Without a payload version, payloads are read raw")
      XCTAssertEqual(
        rawPayloads, [#"{"count":1}"#, #"{"count":2}"#, #"{"value":3}"#, #"{"v3":{"tab":"b"}}"#],
        "\(backend.name): the rows stay as written")
    }
  }

  func testAPayloadNewerThanTheAppIsAClearError() async throws {
    for backend in try await Backends.all() where backend.canReopen {
      let journal = backend.journal
      _ = try await journal.createSession("s", initial: StateEncoding.encode(Root()), version: 1)
      _ = try await journal.append(
        session: "s", expectedSequence: 0, .test("x", version: 5, state: Root()))
      let old = try await backend.reopen(.init(payloadVersion: 4))
      let error = await assertStorageError(.newerPayloadVersion) {
        try await old.entries(session: "s") { _ in true }
      }
      XCTAssertTrue(error?.message.contains("entry 1 of session s") ?? false)
      XCTAssertTrue(error?.message.contains("version 5") ?? false)
      let snapshotResult = try await old.snapshot(session: "s", atOrBelow: 0)?.version
      XCTAssertEqual(snapshotResult, 4)

      let failing = try await backend.reopen(
        .init(
          payloadVersion: 6,
          upcasters: [
            PayloadUpcaster(kind: .action, from: 5) { _ in
              throw CocoaError(.coderReadCorrupt)
            }
          ]))
      await assertStorageError(.upcastFailed) { try await failing.entries(session: "s") { _ in true } }
    }
  }
}
