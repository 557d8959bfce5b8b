import Foundation
import StackJournalPostgresMigrations
import XCTest

@testable import StackJournalCore
@testable import StackStoragePostgres

final class PostgresMigrationFileTests: XCTestCase {
  func testEveryPostgresMigrationFileIsListedAndEmbeddedAsItIs() throws {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let folder = root.appendingPathComponent("Migrations/postgres")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".sql") }.sorted()
    XCTAssertFalse(files.isEmpty)
    XCTAssertEqual(EmbeddedPostgresMigrations.files.map(\.name), files)
    XCTAssertEqual(PostgresMigration.all.map(\.version), Array(1...files.count))
    for (file, migration) in zip(files, PostgresMigration.all) {
      let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
      XCTAssertEqual(migration.sql, String(decoding: bytes, as: UTF8.self), file)
      XCTAssertEqual(migration.checksum.count, 64)
    }
  }
}
