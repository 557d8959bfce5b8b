import StackNavigation

/// Collects reported issues instead of passing them on: replay uses it so that what a reducer
/// reports becomes part of the restoration report, and tests use it to assert that a misuse is
/// reported.
public final class IssueCollector: IssueReporter, @unchecked Sendable {
  private let storage = LockIsolated<[String]>([])

  /// Creates an empty collector.
  public init() {}

  /// The messages reported so far, in order.
  public var messages: [String] { storage.value }

  public func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let text = message() ?? "(no message)"
    storage.withValue { $0.append(text) }
  }
}
