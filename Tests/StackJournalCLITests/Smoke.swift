import XCTest
final class StackJournalCLITestsSmoke: XCTestCase { func testNothing() {} }
