import XCTest
final class StackStorageTestsSmoke: XCTestCase { func testNothing() {} }
