/// How thoroughly a ``TestStore`` asks a test to describe what happens.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every running effect must be asserted.
  case on
  /// Only what the test asserts is checked; unasserted changes and actions are allowed.
  ///
  /// With `showSkippedAssertions: true` what the test did not assert is still reported, as a
  /// known issue that does not fail the test (Swift Testing), or as a note on standard error
  /// (XCTest off Apple's platforms, which has no expected failures).
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, and silent about what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)
}
