import XCTest
final class StackNavigationTestsSmoke: XCTestCase { func testNothing() {} }
