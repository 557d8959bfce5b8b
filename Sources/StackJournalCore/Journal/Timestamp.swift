import Foundation

/// Times as stored: ISO-8601 UTC text with milliseconds, `2025-01-31T09:30:00.123Z`.
///
/// The fixed width makes text order match time order, so SQL compares and indexes them as
/// text. Written by hand (proleptic Gregorian calendar, days from civil) to be fast and
/// independent of locale and formatter state. Use it to compare with the `recorded_at` and
/// `created_at` columns in plain SQL, or to print times the way the journal and its exports
/// write them.
public enum Timestamp {
  private static let millisecondsPerDay: Int64 = 86_400_000

  /// Milliseconds since 1970, to the nearest millisecond.
  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  /// The date to the nearest millisecond: what a stored time reads back as.
  package static func rounded(_ date: Date) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds(date)) / 1000)
  }

  /// The earliest time the stored form holds: `0000-01-01T00:00:00.000Z`.
  public static let earliest = Date(
    timeIntervalSince1970: Double(days(fromCivil: 0, 1, 1) * millisecondsPerDay) / 1000)

  /// The latest time the stored form holds: `9999-12-31T23:59:59.999Z`.
  public static let latest = Date(
    timeIntervalSince1970: Double(days(fromCivil: 10_000, 1, 1) * millisecondsPerDay - 1) / 1000)

  /// Whether the date, to the nearest millisecond, is one the stored form holds (years 0000
  /// through 9999 in UTC): only those texts have one length, so only they order as text in
  /// the order of their times. `+10000-01-01T…` sorts below `2026-…`.
  public static func isStorable(_ date: Date) -> Bool {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    return milliseconds.isFinite
      && milliseconds >= earliest.timeIntervalSince1970 * 1000
      && milliseconds <= (latest.timeIntervalSince1970 * 1000).rounded()
  }

  /// The stored text of a date that ``isStorable(_:)``; otherwise throws
  /// ``StorageError/Code/timeOutOfRange`` naming `what` the time is (`"the time of the entry"`)
  /// and the times a journal holds. Every time written to a journal or compared with its
  /// columns goes through it.
  package static func stored(_ date: Date, _ what: @autoclosure () -> String, path: String? = nil)
    throws -> String
  {
    guard isStorable(date) else {
      throw StorageError(
        code: .timeOutOfRange,
        message: "\(what()) (\(string(from: date))) is outside the times a journal holds, "
          + "\(string(from: earliest)) through \(string(from: latest)): stored as text, a later "
          + "or earlier year would not sort in time order. Nothing was written or read; give a "
          + "time in that range.",
        path: path)
    }
    return string(from: date)
  }

  /// The stored text of a date, to the nearest millisecond; a year outside 0000–9999 is
  /// written with its sign and at least four digits, such as `+10000` or `-0001`, which the
  /// stored form does not hold (`stored(_:_:path:)` refuses it): for messages only.
  public static func string(from date: Date) -> String {
    let milliseconds = milliseconds(date)
    var days = milliseconds / millisecondsPerDay
    var rest = milliseconds % millisecondsPerDay
    if rest < 0 {
      days -= 1
      rest += millisecondsPerDay
    }
    let (year, month, day) = civil(fromDays: days)
    if (0...9999).contains(year) {
      // The common case, written digit by digit into the text's 24 bytes: building it from
      // each field's `String` cost thousands of instructions, and every append writes one.
      return String(unsafeUninitializedCapacity: 24) { text in
        func put(_ value: Int64, width: Int, at offset: Int) {
          var value = value
          for index in (offset..<offset + width).reversed() {
            text[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
          }
        }
        put(year, width: 4, at: 0)
        text[4] = UInt8(ascii: "-")
        put(month, width: 2, at: 5)
        text[7] = UInt8(ascii: "-")
        put(day, width: 2, at: 8)
        text[10] = UInt8(ascii: "T")
        put(rest / 3_600_000, width: 2, at: 11)
        text[13] = UInt8(ascii: ":")
        put(rest / 60_000 % 60, width: 2, at: 14)
        text[16] = UInt8(ascii: ":")
        put(rest / 1000 % 60, width: 2, at: 17)
        text[19] = UInt8(ascii: ".")
        put(rest % 1000, width: 3, at: 20)
        text[23] = UInt8(ascii: "Z")
        return 24
      }
    }
    var text = ""
    text.reserveCapacity(24)
    if year < 0 || year > 9999 {
      text += year < 0 ? "-" : "+"
      append(abs(year), width: 4, to: &text)
    } else {
      append(year, width: 4, to: &text)
    }
    text += "-"
    append(month, width: 2, to: &text)
    text += "-"
    append(day, width: 2, to: &text)
    text += "T"
    append(rest / 3_600_000, width: 2, to: &text)
    text += ":"
    append(rest / 60_000 % 60, width: 2, to: &text)
    text += ":"
    append(rest / 1000 % 60, width: 2, to: &text)
    text += "."
    append(rest % 1000, width: 3, to: &text)
    text += "Z"
    return text
  }

  /// The date of a stored text `YYYY-MM-DDTHH:MM:SS.sssZ`, or `nil` when malformed.
  ///
  /// A day the month does not have (`2026-11-31`) and a leap second (`:60`) are refused: ``string(from:)`` never writes one, and reading it as the
  /// next second would turn `9999-12-31T23:59:60` into a year this form cannot hold; reading
  /// them as the next day or second would make a stored time print back differently.
  public static func date(from text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
      bytes[23] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[range] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let millisecond = number(20..<23), (1...12).contains(month),
      day >= 1, day <= Int64(length(ofMonth: Int(month), year: Int(year))),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let days = self.days(fromCivil: year, month, day)
    let milliseconds =
      days * millisecondsPerDay + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
    return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Midnight UTC of a day of the proleptic Gregorian calendar (year 0 is 1 BC, as in ISO
  /// 8601), or `nil` when the month has no such day.
  public static func midnight(year: Int, month: Int, day: Int) -> Date? {
    guard (1...12).contains(month), day >= 1, day <= length(ofMonth: month, year: year) else {
      return nil
    }
    let days = self.days(fromCivil: Int64(year), Int64(month), Int64(day))
    return Date(timeIntervalSince1970: Double(days * millisecondsPerDay) / 1000)
  }

  /// The number of days of a month (1–12) of the proleptic Gregorian calendar.
  static func length(ofMonth month: Int, year: Int) -> Int {
    let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    return [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  }

  private static func append(_ value: Int64, width: Int, to text: inout String) {
    let digits = String(value)
    if digits.count < width {
      text += String(repeating: "0", count: width - digits.count)
    }
    text += digits
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date.
  private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date of a day count since 1970-01-01.
  private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

extension Timestamp {
  /// The `latest_at` of an entry recorded at `recordedAt` after an entry whose `latest_at` is
  /// `previous` (`nil` for a session's first entry kept). Times are ISO-8601 text of one
  /// length, so their order is their text's.
  package static func latest(_ recordedAt: String, after previous: String?) -> String {
    guard let previous, previous > recordedAt else { return recordedAt }
    return previous
  }}
