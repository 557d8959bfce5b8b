import Foundation
import StackJournalCore

/// Times as the commands print them, always in UTC, to the millisecond.
enum TimeFormat {
  /// `2026-11-21T14:02:03.120Z`, for JSON: the text the journal stores.
  static func iso(_ date: Date) -> String {
    Timestamp.string(from: date)
  }

  /// `2026-11-21 14:02:03.120`, for people (the column header says UTC).
  static func display(_ date: Date) -> String {
    String(iso(date).dropLast()).replacingOccurrences(of: "T", with: " ")
  }

  /// A byte count for people: `812 B`, `14.2 KiB`, `3.1 MiB`.
  static func bytes(_ count: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(count)
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return unit == 0 ? "\(count) B" : String(format: "%.1f", value) + " " + units[unit]
  }
}
