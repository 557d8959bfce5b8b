import ConcurrencyExtras
import Foundation
import XCTest

// The base class the Composable Architecture's tests inherit from, and — because XCTest on Linux
// has no `XCTExpectFailure` — the part of XCTest's expected-failure API those tests call:
// `XCTExpectFailure { issue in … }` for the rest of a test, and
// `XCTExpectFailure { … } issueMatcher: { issue in … }` around a block. An expected failure
// that does not arrive fails the test, as a strict expectation does in XCTest; a failure no
// matcher accepts fails the test as usual.

/// The failures a test expects, innermost last; a test case's failures pass through here.
private let expectations = LockIsolated<[ExpectedFailure]>([])

private final class ExpectedFailure: @unchecked Sendable {
  let matcher: (XCTIssue) -> Bool
  let location: (file: StaticString, line: UInt)
  let untilEndOfTest: Bool
  var matched = 0

  init(
    matcher: @escaping (XCTIssue) -> Bool, location: (StaticString, UInt), untilEndOfTest: Bool
  ) {
    self.matcher = matcher
    self.location = location
    self.untilEndOfTest = untilEndOfTest
  }

  func checkMatched() {
    if matched == 0 {
      XCTFail("Expected failure was not recorded", file: location.file, line: location.line)
    }
  }
}

#if !canImport(Darwin)
  /// What a failure matcher sees: XCTest's issue, reduced to what tests compare.
  struct XCTIssue {
    struct SourceCodeLocation {
      var fileURL: URL
      var lineNumber: Int
    }
    struct SourceCodeContext {
      var location: SourceCodeLocation?
    }

    var compactDescription: String
    var sourceCodeContext: SourceCodeContext
  }

  /// Expects a failure, any failure, before the end of the test.
  func XCTExpectFailure(
    _ failureReason: String? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTExpectFailure(failureReason, file: file, line: line, issueMatcher: { _ in true })
  }

  /// Expects a failure that `issueMatcher` accepts before the end of the test.
  func XCTExpectFailure(
    _ failureReason: String? = nil,
    file: StaticString = #filePath,
    line: UInt = #line,
    issueMatcher: @escaping (XCTIssue) -> Bool
  ) {
    let expected = ExpectedFailure(
      matcher: issueMatcher, location: (file, line), untilEndOfTest: true)
    expectations.withValue { $0.append(expected) }
  }

  /// Expects `failingBlock` to record a failure that `issueMatcher` accepts.
  func XCTExpectFailure<R>(
    _ failureReason: String? = nil,
    file: StaticString = #filePath,
    line: UInt = #line,
    failingBlock: () throws -> R,
    issueMatcher: @escaping (XCTIssue) -> Bool
  ) rethrows -> R {
    let expected = ExpectedFailure(
      matcher: issueMatcher, location: (file, line), untilEndOfTest: false)
    expectations.withValue { $0.append(expected) }
    defer {
      expectations.withValue { $0.removeAll { $0 === expected } }
      expected.checkMatched()
    }
    return try failingBlock()
  }
#endif

class BaseTCATestCase: XCTestCase {
  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    #if !canImport(Darwin)
      let issue = XCTIssue(
        compactDescription: description,
        sourceCodeContext: .init(
          location: .init(fileURL: URL(fileURLWithPath: filePath), lineNumber: lineNumber)))
      let caught = expectations.withValue { expectations -> Bool in
        guard let expected = expectations.last(where: { $0.matcher(issue) }) else { return false }
        expected.matched += 1
        return true
      }
      if caught { return }
    #endif
    super.recordFailure(
      withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
  }

  override func tearDown() {
    // A test store turns the main serial executor on while it lives and puts it back when it
    // goes; XCTest keeps every test case (and a store one keeps, as `longLivingStore` in
    // `TestStoreFailureTests`) alive until the process ends, so such a store would leave the
    // executor on for every test after it.
    uncheckedUseMainSerialExecutor = false
    let remaining = expectations.withValue { expectations in
      defer { expectations.removeAll() }
      return expectations.filter(\.untilEndOfTest)
    }
    for expected in remaining { expected.checkMatched() }
    super.tearDown()
  }
}
