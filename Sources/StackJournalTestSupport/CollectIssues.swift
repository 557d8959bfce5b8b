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
