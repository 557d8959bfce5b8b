import ArgumentParser
import Foundation
import StackJournalCore

/// A time given on the command line: an ISO-8601 date and time, a date, or a clock time on the
/// session's day.
///
/// As an option's value it takes any text: text that is not a time is refused when the command
/// runs (``readable(option:)``), with a one-line error naming the accepted forms and exit
/// status 2 like any input the command cannot use, not as a usage error.
struct TimeExpression: Equatable, ExpressibleByArgument {
  /// What the accepted forms are, for `--help` and error messages.
  static let accepted =
    "ISO-8601 such as 2026-11-21T14:02:00Z, 2026-11-21T14:02Z, 2026-11-21T14:02:00.250+01:00, "
    + "2026-11-21T14:02 or '2026-11-21 14:02' (no offset means UTC), 2026-11-21 (midnight UTC), "
    + "or HH:MM[:SS] on the session's day (UTC)"

  /// The forms that name a date, for options that have no session to take a day from.
  static let acceptedDates =
    "ISO-8601 such as 2026-11-21T14:02:00Z, 2026-11-21T14:02Z, 2026-11-21T14:02:00.250+01:00, "
    + "2026-11-21T14:02 (no offset means UTC) or 2026-11-21 (midnight UTC)"

  /// A moment, or a clock time whose day is the session's.
  enum Kind: Equatable {
    case instant(Date)
    case clock(seconds: Double)
  }

  /// The text as given.
  let text: String
  /// What the text says; `nil` when it is not a time.
  let kind: Kind?

  private static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// Reads an option's value; never fails, see ``readable(option:)``.
  init(argument: String) {
    self.text = argument
    self.kind = Self.parse(argument.trimmingCharacters(in: .whitespaces))
  }

  /// What the time says; throws a one-line error naming the accepted forms when it is not a
  /// time, and one naming the range a journal holds when it is outside it.
  func readable(option: String) throws -> Kind {
    guard let kind else {
      throw CLIFailure(
        message: "Cannot read the time '\(text)' of \(option): use \(Self.accepted).")
    }
    if case .instant(let date) = kind { try checkStorable(date, option: option) }
    return kind
  }

  /// Throws when `date` is outside the times a journal holds (years 0000–9999 in UTC), which
  /// stored as text would not compare in time order: `9999-12-31T23:00-01:00` is in year 10000.
  private func checkStorable(_ date: Date, option: String) throws {
    guard !Timestamp.isStorable(date) else { return }
    throw CLIFailure(
      message: "The time '\(text)' of \(option) is \(Timestamp.string(from: date)) in UTC, "
        + "\(date < Timestamp.earliest ? "before" : "after") the times a journal holds, "
        + "\(Timestamp.string(from: Timestamp.earliest)) through "
        + "\(Timestamp.string(from: Timestamp.latest)); give a time in that range.")
  }

  /// The moment, resolving a clock time on the session's day.
  func resolve(in journal: any InspectableJournal, session: SessionID, option: String) async throws
    -> Date
  {
    switch try readable(option: option) {
    case .instant(let date):
      return date
    case .clock(let seconds):
      guard let info = try await journal.session(session) else {
        throw CLIFailure(
          message: "There is no session \(session) in \(journal.locationDescription).")
      }
      return try clockTime(seconds, on: info, option: option)
    }
  }

  /// The moment, resolving a clock time on the day of `session`, as read already.
  func resolve(session: SessionInfo, option: String) throws -> Date {
    switch try readable(option: option) {
    case .instant(let date): return date
    case .clock(let seconds): return try clockTime(seconds, on: session, option: option)
    }
  }

  /// A clock time on the one day the session spans from its creation to its last entry.
  private func clockTime(_ seconds: Double, on info: SessionInfo, option: String) throws -> Date {
    let first = Self.utc.startOfDay(for: info.createdAt)
    let last = Self.utc.startOfDay(for: info.lastActivity ?? info.createdAt)
    guard first == last else {
      throw CLIFailure(
        message: "The time '\(text)' of \(option) is ambiguous: session \(info.id) spans "
          + "\(Self.day(first)) to \(Self.day(last)); give the date too, such as "
          + "\(Self.day(last))T\(text)Z.")
    }
    let date = first.addingTimeInterval(seconds)
    try checkStorable(date, option: option)
    return date
  }

  /// The moment of an instant; throws for a clock time, which needs a session.
  func instant(option: String) throws -> Date {
    guard case .instant(let date) = try readable(option: option) else {
      throw CLIFailure(
        message: "The time '\(text)' of \(option) has no date, and no session gives one; give "
          + "a date too, such as 2026-11-21T\(text)Z.")
    }
    return date
  }

  private static func day(_ date: Date) -> String {
    String(TimeFormat.iso(date).prefix(10))
  }

  static func parse(_ text: String) -> Kind? {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func number(_ digits: Int) -> Int? {
      guard index + digits <= scalars.count else { return nil }
      var value = 0
      for scalar in scalars[index..<index + digits] {
        guard let digit = Int(String(scalar)), ("0"..."9").contains(scalar) else { return nil }
        value = value * 10 + digit
      }
      index += digits
      return value
    }
    func consume(_ character: Unicode.Scalar) -> Bool {
      guard index < scalars.count, scalars[index] == character else { return false }
      index += 1
      return true
    }
    func clock() -> Double? {
      guard let hour = number(2), consume(":"), let minute = number(2), hour < 24, minute < 60
      else { return nil }
      var seconds = Double(hour * 3600 + minute * 60)
      if consume(":") {
        guard let second = number(2), second < 60 else { return nil }
        seconds += Double(second)
        if consume(".") || consume(",") {
          let start = index
          while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
          guard index > start,
            let fraction = Double("0." + String(String.UnicodeScalarView(scalars[start..<index])))
          else { return nil }
          seconds += fraction
        }
      }
      return seconds
    }
    // HH:MM[:SS[.fff]] on the session's day.
    if scalars.count >= 5, scalars[2] == ":" {
      guard let seconds = clock(), index == scalars.count else { return nil }
      return .clock(seconds: seconds)
    }
    guard let year = number(4), consume("-"), let month = number(2), consume("-"),
      let day = number(2), (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var seconds = 0.0
    var offset = 0
    if index < scalars.count {
      guard consume("T") || consume("t") || consume(" ") else { return nil }
      guard let clockSeconds = clock() else { return nil }
      seconds = clockSeconds
      if consume("Z") || consume("z") {
      } else if index < scalars.count {
        let sign: Int
        if consume("+") {
          sign = 1
        } else if consume("-") {
          sign = -1
        } else {
          return nil
        }
        guard let hours = number(2), hours < 24 else { return nil }
        _ = consume(":")
        guard let minutes = number(2), minutes < 60 else { return nil }
        offset = sign * (hours * 3600 + minutes * 60)
      }
      guard index == scalars.count else { return nil }
    }
    // The proleptic Gregorian calendar of ISO 8601 and of the stored times: year 0 exists.
    guard let midnight = Timestamp.midnight(year: year, month: month, day: day) else {
      return nil
    }
    return .instant(midnight.addingTimeInterval(seconds - Double(offset)))
  }
}
