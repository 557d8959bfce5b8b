/// How thoroughly a ``TestStore`` asks a test to describe what happens.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every running effect must be asserted.
  case on
  /// Only what the test asserts is checked; unasserted changes and actions are allowed.
  case off
}

