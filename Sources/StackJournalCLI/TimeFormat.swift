import Foundation

/// Times as the commands print them, always in UTC, to the millisecond.
enum TimeFormat {
  /// `2026-11-21T14:02:03.120Z`, for JSON.
  static func iso(_ date: Date) -> String {
    let (day, time) = parts(date)
    return day + "T" + time + "Z"
  }

  /// `2026-11-21 14:02:03.120`, for people (the column header says UTC).
  static func display(_ date: Date) -> String {
    let (day, time) = parts(date)
    return day + " " + time
  }

  private static func parts(_ date: Date) -> (String, String) {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    var days = milliseconds / 86_400_000
    var rest = milliseconds % 86_400_000
    if rest < 0 {
      days -= 1
      rest += 86_400_000
    }
    // Days since 1970-01-01 to a proleptic Gregorian date.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (
      "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))",
      "\(pad(rest / 3_600_000, 2)):\(pad(rest / 60_000 % 60, 2)):\(pad(rest / 1000 % 60, 2))."
        + pad(rest % 1000, 3)
    )
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
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
