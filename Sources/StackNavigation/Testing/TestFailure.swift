import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reports a failure of a test or a misuse of the model: a test failure in tests, a runtime
/// warning elsewhere (through IssueReporting's `reportIssue`, as the Composable Architecture does).
///
/// Off Apple's platforms a test process reaches Swift Testing and XCTest only through
/// IssueReporting's test support library, which the `StackNavigationTesting` product brings.
/// Without it a failure would be printed and the test would pass, so instead the process stops
/// here with the failure and the one-line fix: a navigation test never passes by accident.
func reportFailure(
  _ message: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  testSupportMissing: Bool = TestSupport.isMissingInTestProcess
) {
  if testSupportMissing, TestSupport.goesToDefaultReporter(IssueReporters.current) {
    TestSupport.stop(message, fileID: fileID, line: line)
  }
  #if !canImport(Darwin)
    // Off Apple's platforms IssueReporting cannot tell an XCTest test's thread from an app
    // host's, and appends to every XCTest failure a paragraph about tests "running in a host
    // application". Nothing runs in a host application here, and the paragraph would break
    // matchers written against TCA's messages (`compactDescription.hasSuffix(…)`), so the
    // failure goes to XCTest as written.
    if case .xcTest? = TestContext.current,
      TestSupport.goesToDefaultReporterOnly(IssueReporters.current),
      let fail = TestSupport.xctFail
    {
      fail(message, filePath, line)
      return
    }
  #endif
  reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Reports what a non-exhaustive ``TestStore`` skipped
/// (``Exhaustivity/off(showSkippedAssertions:)`` with `true`) as the Composable Architecture
/// does — "Skipped assertions." and what was skipped — without failing the test: a known issue
/// in Swift Testing; a note on standard error under XCTest off Apple's platforms, where XCTest
/// has no expected failures; an expected issue (`expectIssue`) to the reporters a test
/// installed itself.
func reportSkippedAssertion(
  _ message: String,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  let text = "Skipped assertions.\n\n\(message)"
  guard TestSupport.goesToDefaultReporter(IssueReporters.current) else {
    for reporter in IssueReporters.current {
      reporter.expectIssue(text, fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return
  }
  #if canImport(Darwin)
    let knownIssues = true
  #else
    var knownIssues = false
    if case .swiftTesting? = TestContext.current {
      knownIssues = !TestSupport.isMissingInTestProcess
    }
  #endif
  if knownIssues {
    withExpectedIssue(fileID: fileID, filePath: filePath, line: line, column: column) {
      reportIssue(text, fileID: fileID, filePath: filePath, line: line, column: column)
    }
  } else {
    FileHandle.standardError.write(Data("\(fileID):\(line): note: \(text)\n".utf8))
  }
}

enum TestSupport {
  /// The symbol IssueReporting looks up to record issues in Swift Testing and XCTest.
  static let recordIssueSymbol = "$s25IssueReportingTestSupport07_recordA0ypyF"

  /// Whether this process could not record a failure in a test framework: it is a test process
  /// without the test support library. Evaluated once.
  static let isMissingInTestProcess: Bool = {
    #if canImport(Darwin)
      // IssueReporting reaches the test frameworks itself on Apple's platforms.
      return false
    #else
      return isTesting && !isLinked()
    #endif
  }()

  /// Whether an issue would go to IssueReporting's default reporter, which needs the support
  /// library in a test, rather than only to reporters a test installed to collect issues.
  static func goesToDefaultReporter(_ reporters: [any IssueReporter]) -> Bool {
    reporters.contains { $0 is _DefaultReporter }
  }

  /// Whether an issue would go to IssueReporting's default reporter and nowhere else.
  static func goesToDefaultReporterOnly(_ reporters: [any IssueReporter]) -> Bool {
    reporters.count == 1 && reporters[0] is _DefaultReporter
  }

  /// XCTest's `XCTFail(_:file:line:)`, when this process has XCTest loaded.
  static let xctFail: (@convention(thin) (String, StaticString, UInt) -> Void)? = {
    #if canImport(Glibc) || canImport(Musl)
      guard let handle = dlopen(nil, RTLD_LAZY),
        let symbol = dlsym(handle, "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF")
      else { return nil }
      return unsafeBitCast(
        symbol, to: (@convention(thin) (String, StaticString, UInt) -> Void).self)
    #else
      return nil
    #endif
  }()

  /// Whether IssueReporting's test support library is loaded or loadable, found the way
  /// IssueReporting finds it.
  static func isLinked() -> Bool {
    #if canImport(Glibc) || canImport(Musl)
      let handle =
        dlopen("libIssueReportingTestSupport.so", RTLD_LAZY) ?? dlopen(nil, RTLD_LAZY)
      return handle.flatMap { dlsym($0, recordIssueSymbol) } != nil
    #else
      return false
    #endif
  }

  static func stop(_ message: String, fileID: StaticString, line: UInt) -> Never {
    fatalError(
      """
      \(fileID):\(line): \(message)

      This test failure cannot reach the test framework: add the "StackNavigationTesting" \
      product to your test target, \
      .product(name: "StackNavigationTesting", package: "StackJournal"). \
      Stopping so the test does not pass.
      """)
  }
}

/// Runs a test's assertion closure so that what other libraries report inside it (CasePaths'
/// `XCTModify`, a plain `reportIssue`) reaches the test as the store's own failures do, through
/// ``reportFailure(_:fileID:filePath:line:column:testSupportMissing:)``: off Apple's platforms
/// that keeps IssueReporting's paragraph about host applications out of XCTest's messages.
func forwardingIssues<R>(_ body: () throws -> R) rethrows -> R {
  try withIssueReporters([ForwardingReporter(outer: IssueReporters.current)], operation: body)
}

/// Sends each issue on to the reporters that were current outside the assertion closure.
private struct ForwardingReporter: IssueReporter {
  let outer: [any IssueReporter]

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let message = message() ?? ""
    withIssueReporters(outer) {
      switch severity {
      case .error:
        reportFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
      case .warning:
        IssueReporting.reportIssue(
          message, severity: .warning, fileID: fileID, filePath: filePath, line: line,
          column: column)
      }
    }
  }
}

extension String {
  /// The lines of a failure message, indented under the line that introduces them.
  func indent(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { indentation + $0 }
      .joined(separator: "\n")
  }
}
