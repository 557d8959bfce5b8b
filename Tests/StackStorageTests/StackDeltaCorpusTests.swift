import Foundation
import StackJournalTestSupport
import XCTest

@testable import StackStorage

/// The cases of `Tests/Fixtures/stack-delta-corpus.json` run by the Swift delta rules: by
/// ``StackDelta/apply(to:)`` on stacks in memory, and by the SQLite journal's stack rows
/// (``StackChange/fit(_:)`` before each change is written).
final class StackDeltaCorpusTests: StorageTestCase {
  func testStackDeltaApplyFollowsTheCorpus() throws {
    let corpus = try StackDeltaCorpus()
    XCTAssertGreaterThan(corpus.cases.count, 0)
    for item in corpus.cases {
      var stacks = item.stacks
      do {
        try item.delta.apply(to: &stacks)
        if let result = item.result {
          XCTAssertEqual(stacks, result, item.name)
        } else {
          XCTFail("`\(item.name)` fit, leaving \(stacks); expected a refusal: \(item.refusal!)")
        }
      } catch let error as StorageError {
        XCTAssertEqual(error.code, .inconsistentDelta, item.name)
        XCTAssertNil(item.result, "`\(item.name)` was refused (\(error.message)), expected to fit")
        XCTAssertEqual(stacks, item.stacks, "`\(item.name)` changed the stacks it refused")
      }
    }
  }

  func testSQLiteStackRowsFollowTheCorpus() async throws {
    let corpus = try StackDeltaCorpus()
    try await forEachStorage { journal, storage in
      for disagreement in try await corpus.disagreements(of: journal) {
        XCTFail("\(storage): \(disagreement)")
      }
    }
  }
}
