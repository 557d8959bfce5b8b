import XCTest
final class StackRestorationTestsSmoke: XCTestCase { func testNothing() {} }
