/// Dismisses the feature that calls it: in a stack, pops the calling element by sending
/// ``StackAction/popFrom(id:)`` back into the store; presented with `ifLet`, sends
/// ``PresentationAction/dismiss``; the feature of a ``TestStore`` dismisses the store.
///
/// ```swift
/// @Dependency(\.dismiss) var dismiss
/// …
/// return .run { _ in await self.dismiss() }
/// ```
///
/// Call it from an effect. Anywhere else there is nothing to dismiss, which is reported as an
/// issue.
public struct DismissEffect: Sendable {
  let dismiss: @Sendable (_ fileID: StaticString, _ filePath: StaticString, _ line: UInt) async -> Void

  /// Creates a dismiss effect from a closure, e.g. to observe dismissal in a test.
  public init(_ dismiss: @escaping @Sendable () async -> Void) {
    self.dismiss = { _, _, _ in await dismiss() }
  }

  init(
    _ dismiss: @escaping @Sendable (StaticString, StaticString, UInt) async -> Void
  ) {
    self.dismiss = dismiss
  }

  /// Dismisses the calling feature.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line
  ) async {
    await dismiss(fileID, filePath, line)
  }
}

/// The dismissal installed around the effects of one stack element.
///
/// A struct, not an optional closure, as the task-local value: binding `nil` of an optional
/// function type crashed optimized builds.
struct DismissHandler: Sendable {
  let dismiss: (@Sendable () async -> Void)?

  /// No element to dismiss.
  static let none = DismissHandler(dismiss: nil)

  @TaskLocal static var current = DismissHandler.none
}

extension DismissEffect: DependencyKey {
  public static let liveValue = DismissEffect { fileID, filePath, line in
    guard let dismiss = DismissHandler.current.dismiss else {
      reportFailure(
        """
        'dismiss' was called from an effect that does not belong to a stack element or a \
        presented child, so there is nothing to dismiss. Call it from the effect of a feature \
        pushed onto a 'StackState' or presented with 'ifLet(\\.$destination, action:)'.
        """,
        fileID: fileID, filePath: filePath, line: line
      )
      return
    }
    await dismiss()
  }

  public static let testValue = liveValue
}

extension DependencyValues {
  /// Dismisses the feature that calls it; see ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissEffect.self] }
    set { self[DismissEffect.self] = newValue }
  }
}
