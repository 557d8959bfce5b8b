import Foundation

/// The moment of a session's history to restore.
public enum RestoreTarget: Sendable, Equatable {
  /// After the last entry.
  case head
  /// After the entry with this sequence number (0 is the initial state).
  case sequence(Int64)
  /// After the last entry recorded at or before this date.
  case date(Date)
}
