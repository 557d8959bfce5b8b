import StackNavigation

/// Collects reported issues instead of passing them on: replay uses it so that what a reducer
/// reports becomes part of the restoration report, and tests use it to assert that a misuse is
/// reported.
public final class IssueCollector: IssueReporter, @unchecked Sendable {
  /// A reported issue: its message and where it was reported.
  public struct Issue: Equatable, Sendable {
    /// The message.
    public var message: String
    /// The file it was reported in, as `Module/File.swift`.
    public var fileID: String
    /// The line it was reported at.
    public var line: UInt
  }

  private let storage = LockIsolated<[Issue]>([])

  /// Creates an empty collector.
  public init() {}

  /// The issues reported so far, in order.
  public var issues: [Issue] { storage.value }

  /// The messages reported so far, in order.
  public var messages: [String] { storage.value.map(\.message) }

  public func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let issue = Issue(message: message() ?? "(no message)", fileID: "\(fileID)", line: line)
    storage.withValue { $0.append(issue) }
  }
}
