import StackNavigation
import StackRestoration

/// Runs an operation and returns the issues it reported; they do not fail the test.
public func collectIssues(_ operation: () throws -> Void) rethrows -> [String] {
  let collector = IssueCollector()
  try withIssueReporters([collector], operation: operation)
  return collector.messages
}

/// Runs an asynchronous operation and returns the issues it reported.
public func collectIssues(
  isolation: isolated (any Actor)? = #isolation,
  _ operation: () async throws -> Void
) async rethrows -> [String] {
  let collector = IssueCollector()
  try await withIssueReporters([collector], operation: operation)
  return collector.messages
}

/// An issue an operation reported: its message and where it was reported.
public struct CollectedIssue: Equatable, Sendable, CustomStringConvertible {
  /// The message.
  public var message: String
  /// The file it was reported in, as `Module/File.swift`.
  public var fileID: String
  /// The line it was reported at.
  public var line: UInt

  /// Creates an issue, e.g. to compare with collected ones.
  public init(_ message: String, fileID: String, line: UInt) {
    self.message = message
    self.fileID = fileID
    self.line = line
  }

  public var description: String { "\(fileID):\(line): \(message)" }

  init(_ issue: IssueCollector.Issue) {
    self.init(issue.message, fileID: issue.fileID, line: issue.line)
  }
}

/// Runs an asynchronous operation and returns the issues it reported, with their locations.
public func collectIssuesWithLocations(
  isolation: isolated (any Actor)? = #isolation,
  _ operation: () async throws -> Void
) async rethrows -> [CollectedIssue] {
  let collector = IssueCollector()
  try await withIssueReporters([collector], operation: operation)
  return collector.issues.map(CollectedIssue.init)
}

/// Runs an operation and returns the issues it reported, with their locations.
public func collectIssuesWithLocations(
  _ operation: () throws -> Void
) rethrows -> [CollectedIssue] {
  let collector = IssueCollector()
  try withIssueReporters([collector], operation: operation)
  return collector.issues.map(CollectedIssue.init)
}

/// Runs an operation and returns the expected issues it reported (`expectIssue`), such as a
/// non-exhaustive `TestStore`'s skipped assertions, which do not fail a test.
public func collectExpectedIssues(
  isolation: isolated (any Actor)? = #isolation,
  _ operation: () async throws -> Void
) async rethrows -> [String] {
  let collector = ExpectedIssueCollector()
  try await withIssueReporters([collector], operation: operation)
  return collector.messages.value
}

/// Records expected issues; ignores the rest.
private final class ExpectedIssueCollector: IssueReporter {
  let messages = LockIsolated<[String]>([])

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString,
    filePath: StaticString, line: UInt, column: UInt
  ) {}

  func expectIssue(
    _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {
    let message = message() ?? ""
    messages.withValue { $0.append(message) }
  }
}
