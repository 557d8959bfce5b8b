import StackNavigation

/// Collects the issues reported while an operation runs, instead of failing the test, so a
/// test can assert that a misuse is reported.
public final class IssueCollector: IssueReporter, @unchecked Sendable {
  private let messages = LockIsolated<[String]>([])

  /// Creates an empty collector.
  public init() {}

  /// The messages reported so far.
  public var issues: [String] { messages.value }

  public func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let text = message() ?? "(no message)"
    messages.withValue { $0.append(text) }
  }
}

/// Runs an operation and returns the issues it reported; they do not fail the test.
public func collectIssues(_ operation: () throws -> Void) rethrows -> [String] {
  let collector = IssueCollector()
  try withIssueReporters([collector], operation: operation)
  return collector.issues
}

/// Runs an asynchronous operation and returns the issues it reported.
public func collectIssues(
  isolation: isolated (any Actor)? = #isolation,
  _ operation: () async throws -> Void
) async rethrows -> [String] {
  let collector = IssueCollector()
  try await withIssueReporters([collector], operation: operation)
  return collector.issues
}
