import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class DurabilityOptionTests: StorageTestCase {
  func testAJournalTellsTheDurabilityItWrites() throws {
    XCTAssertEqual(try makeJournal(.onDisk).durability, .full)
    XCTAssertEqual(try makeJournal(.onDisk, options: .init(durability: .normal)).durability, .normal)
    XCTAssertEqual(
      try makeJournal(.inMemory, options: .init(durability: .groupCommit(maxBatch: 4))).durability,
      .groupCommit(maxBatch: 4))
  }
}
