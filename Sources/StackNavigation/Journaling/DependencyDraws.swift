import Foundation

/// One value a reducer drew from a dependency while an action ran: a UUID from `\.uuid`, a date
/// from `\.date`, a 64-bit word from `\.withRandomNumberGenerator`, or a value an app's own
/// dependency drew through ``journaledDraw(_:_:)``.
///
/// A recording store keeps an action's draws, in order, with its journal entry; replaying the
/// entry hands the same values back in the same order, so the reducer reaches the state the user
/// had. Stored as one-key JSON objects: `{"uuid": "E621E1F8-…"}`, `{"date": 786123456.789}` (seconds
/// since 2001-01-01 00:00 UTC, `Date`'s own reference, so the value comes back to the bit),
/// `{"random": "18446744073709551615"}` (a decimal string: every JSON reader keeps it exact) and
/// `{"value": {"name": "dice.roll", "json": "4"}}` (the value's JSON text).
public enum DependencyDraw: Equatable, Sendable {
  /// A UUID drawn from `@Dependency(\.uuid)`.
  case uuid(UUID)
  /// A date drawn from `@Dependency(\.date)`.
  case date(Date)
  /// A word drawn from the generator of `@Dependency(\.withRandomNumberGenerator)`.
  case random(UInt64)
  /// A value an app's own dependency drew through ``journaledDraw(_:_:)``: its name and JSON.
  case value(name: String, json: String)

  /// What kind of draw this is, as the journal names it: `uuid`, `date`, `random` or the name
  /// an app's own draw was given.
  public var kind: String {
    switch self {
    case .uuid: "uuid"
    case .date: "date"
    case .random: "random"
    case let .value(name, _): name
    }
  }

  /// The dependency a draw of this kind comes from, as a TCA user writes it.
  public var source: String {
    switch self {
    case .uuid: "\\.uuid"
    case .date: "\\.date"
    case .random: "\\.withRandomNumberGenerator"
    case let .value(name, _): "journaledDraw(\"\(name)\")"
    }
  }
}

/// What the recording ran with that changes a reducer's output without being drawn: the
/// `\.timeZone`, `\.locale` and `\.calendar` dependencies. Recorded with the first entry a store
/// journals and again when they change; replay runs with them, so a replay on a machine in
/// another time zone reaches the same state.
public struct RecordedEnvironment: Codable, Equatable, Sendable {
  /// `\.timeZone`'s identifier, e.g. `Europe/Paris`.
  public var timeZone: String
  /// `\.locale`'s identifier, e.g. `fr_FR`.
  public var locale: String
  /// `\.calendar`.
  public var calendar: CalendarRecord

  /// A calendar as the journal keeps it.
  public struct CalendarRecord: Codable, Equatable, Sendable {
    /// The calendar's identifier, e.g. `gregorian`.
    public var identifier: String
    /// The calendar's time zone identifier.
    public var timeZone: String
    /// The calendar's locale identifier, when it has one.
    public var locale: String?
    /// The first day of the week, 1 (Sunday) … 7.
    public var firstWeekday: Int
    /// The minimum number of days of the first week of a year, 1 … 7.
    public var minimumDaysInFirstWeek: Int
  }

  /// The environment of a set of dependency values.
  ///
  /// Read as `withDependencies` reads values it is setting: in a test that did not set one of
  /// them this gives its default (the machine's) instead of reporting it unimplemented — the
  /// reducer that reads it reports that itself.
  public init(_ values: DependencyValues) {
    let (timeZone, locale, calendar) = Self.values(of: values)
    self.init(timeZone: timeZone, locale: locale, calendar: calendar)
  }

  /// The `\.timeZone`, `\.locale` and `\.calendar` of a set of dependency values, read as
  /// ``init(_:)`` reads them. A recorder reads them once and makes a record of them for each
  /// entry: an `autoupdatingCurrent` value read once still follows the process's settings.
  package static func values(of values: DependencyValues) -> (TimeZone, Locale, Calendar) {
    var read: (TimeZone, Locale, Calendar)?
    withDependencies {
      $0 = values
      read = ($0.timeZone, $0.locale, $0.calendar)
    } operation: {}
    return read!
  }

  /// The environment of these values.
  public init(timeZone: TimeZone, locale: Locale, calendar: Calendar) {
    self.timeZone = timeZone.identifier
    self.locale = locale.identifier
    self.calendar = CalendarRecord(
      identifier: Self.name(of: calendar.identifier),
      timeZone: calendar.timeZone.identifier,
      locale: calendar.locale?.identifier,
      firstWeekday: calendar.firstWeekday,
      minimumDaysInFirstWeek: calendar.minimumDaysInFirstWeek)
  }

  /// Sets `\.timeZone`, `\.locale` and `\.calendar` to the recorded ones. Throws a
  /// ``DrawRecordError`` naming what this machine does not know (a time zone identifier, a
  /// calendar) or a day number out of range.
  public func apply(to values: inout DependencyValues) throws {
    guard let timeZone = TimeZone(identifier: timeZone) else {
      throw DrawRecordError("the recorded time zone \(String(reflecting: self.timeZone)) is not one this machine knows")
    }
    guard let zone = TimeZone(identifier: calendar.timeZone) else {
      throw DrawRecordError("the recorded calendar's time zone \(String(reflecting: calendar.timeZone)) is not one this machine knows")
    }
    guard let identifier = Self.identifier(named: calendar.identifier) else {
      throw DrawRecordError("the recorded calendar \(String(reflecting: calendar.identifier)) is not one this machine knows")
    }
    guard (1...7).contains(calendar.firstWeekday), (1...7).contains(calendar.minimumDaysInFirstWeek)
    else {
      throw DrawRecordError(
        "the recorded calendar's first weekday \(calendar.firstWeekday) or minimum days "
          + "\(calendar.minimumDaysInFirstWeek) is not 1…7")
    }
    var rebuilt = Calendar(identifier: identifier)
    rebuilt.timeZone = zone
    rebuilt.locale = calendar.locale.map(Locale.init(identifier:))
    rebuilt.firstWeekday = calendar.firstWeekday
    rebuilt.minimumDaysInFirstWeek = calendar.minimumDaysInFirstWeek
    values.timeZone = timeZone
    values.locale = Locale(identifier: locale)
    values.calendar = rebuilt
  }

  private static let identifiers: [(String, Calendar.Identifier)] = [
    ("gregorian", .gregorian), ("buddhist", .buddhist), ("chinese", .chinese),
    ("coptic", .coptic), ("ethiopicAmeteMihret", .ethiopicAmeteMihret),
    ("ethiopicAmeteAlem", .ethiopicAmeteAlem), ("hebrew", .hebrew), ("iso8601", .iso8601),
    ("indian", .indian), ("islamic", .islamic), ("islamicCivil", .islamicCivil),
    ("japanese", .japanese), ("persian", .persian), ("republicOfChina", .republicOfChina),
    ("islamicTabular", .islamicTabular), ("islamicUmmAlQura", .islamicUmmAlQura),
  ]

  static func name(of identifier: Calendar.Identifier) -> String {
    identifiers.first { $0.1 == identifier }?.0 ?? "\(identifier)"
  }

  static func identifier(named name: String) -> Calendar.Identifier? {
    identifiers.first { $0.0 == name }?.1
  }
}

/// What one journal entry's reducer run drew, in order, and the environment it ran in when that
/// changed: the record a journal keeps beside the entry's action.
///
/// Stored as JSON, `{"environment": {…}, "values": [{"uuid": "…"}, …]}`; an entry that drew
/// nothing and ran in the environment of the entry before keeps no record at all.
public struct EntryDraws: Equatable, Sendable {
  /// The values drawn, in the order the reducer drew them.
  public var values: [DependencyDraw]
  /// The environment, when the entry is the first its store journaled or the environment
  /// changed.
  public var environment: RecordedEnvironment?

  /// Creates a record.
  public init(values: [DependencyDraw] = [], environment: RecordedEnvironment? = nil) {
    self.values = values
    self.environment = environment
  }

  /// Whether there is nothing to keep.
  public var isEmpty: Bool { values.isEmpty && environment == nil }

  /// How many values of each kind, as `log` says it: `2 uuid, 1 date`.
  public var summary: String {
    var counts: [(String, Int)] = []
    for value in values {
      if let index = counts.firstIndex(where: { $0.0 == value.kind }) {
        counts[index].1 += 1
      } else {
        counts.append((value.kind, 1))
      }
    }
    return counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
  }

  /// The most values one entry may hold; a record with more is refused as damaged.
  public static let maximumCount = 100_000
}

/// A journaled draw record that cannot be read: not the shape a journal writes, a UUID that is
/// not one, a kind no dependency draws.
public struct DrawRecordError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, in a sentence that names the value.
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

extension DependencyDraw: Codable {
  private enum Key: String, CodingKey {
    case uuid, date, random, value
  }

  private struct Named: Codable {
    var name: String
    var json: String
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: container.codingPath,
          debugDescription: "a draw is one of {\"uuid\": …}, {\"date\": …}, {\"random\": …} or "
            + "{\"value\": …}, with one key"))
    }
    switch key {
    case .uuid:
      let text = try container.decode(String.self, forKey: .uuid)
      guard let uuid = UUID(uuidString: text) else {
        throw DecodingError.dataCorruptedError(
          forKey: .uuid, in: container,
          debugDescription: "\(String(reflecting: String(text.prefix(64)))) is not a UUID")
      }
      self = .uuid(uuid)
    case .date:
      let seconds = try container.decode(Double.self, forKey: .date)
      guard seconds.isFinite else {
        throw DecodingError.dataCorruptedError(
          forKey: .date, in: container, debugDescription: "a date is a finite number of seconds")
      }
      self = .date(Date(timeIntervalSinceReferenceDate: seconds))
    case .random:
      let text = try container.decode(String.self, forKey: .random)
      guard let word = UInt64(text) else {
        throw DecodingError.dataCorruptedError(
          forKey: .random, in: container,
          debugDescription: "\(String(reflecting: String(text.prefix(64)))) is not a 64-bit "
            + "unsigned number")
      }
      self = .random(word)
    case .value:
      let named = try container.decode(Named.self, forKey: .value)
      guard !named.name.isEmpty, named.name.count <= 200,
        !["uuid", "date", "random"].contains(named.name)
      else {
        throw DecodingError.dataCorruptedError(
          forKey: .value, in: container,
          debugDescription: "\(String(reflecting: String(named.name.prefix(64)))) is not a "
            + "draw's name: 1 to 200 characters, not uuid, date or random")
      }
      self = .value(name: named.name, json: named.json)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch self {
    case let .uuid(uuid): try container.encode(uuid.uuidString, forKey: .uuid)
    case let .date(date): try container.encode(date.timeIntervalSinceReferenceDate, forKey: .date)
    case let .random(word): try container.encode(String(word), forKey: .random)
    case let .value(name, json): try container.encode(Named(name: name, json: json), forKey: .value)
    }
  }
}

extension EntryDraws: Codable {
  private enum Key: String, CodingKey {
    case environment, values
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    self.environment = try container.decodeIfPresent(
      RecordedEnvironment.self, forKey: .environment)
    self.values = try container.decodeIfPresent([DependencyDraw].self, forKey: .values) ?? []
    guard values.count <= Self.maximumCount else {
      throw DecodingError.dataCorruptedError(
        forKey: .values, in: container,
        debugDescription: "\(values.count) draws, more than the \(Self.maximumCount) one entry "
          + "may hold")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encodeIfPresent(environment, forKey: .environment)
    if !values.isEmpty { try container.encode(values, forKey: .values) }
  }
}

extension EntryDraws {
  /// Reads a stored record: JSON text as a journal keeps it. Throws a ``DrawRecordError`` that
  /// says what is wrong, prefixed with `place` (e.g. `the draws of entry 7`).
  public init(json: Data, place: String) throws {
    do {
      self = try JSONDecoder().decode(EntryDraws.self, from: json)
    } catch let error as DecodingError {
      throw DrawRecordError("\(place) cannot be read: \(Self.describe(error))")
    } catch {
      throw DrawRecordError("\(place) cannot be read: \(error)")
    }
  }

  /// The record as a journal stores it: sorted-key JSON.
  public func json() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Every part is a string, a finite number or an array of them: encoding cannot fail.
    return (try? encoder.encode(self)) ?? Data("{}".utf8)
  }

  static func describe(_ error: DecodingError) -> String {
    func at(_ path: [any CodingKey]) -> String {
      let names = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return names.isEmpty ? "" : " at \(names)"
    }
    switch error {
    case let .dataCorrupted(context):
      return context.debugDescription + at(context.codingPath)
    case let .keyNotFound(key, context):
      return "\(key.stringValue) is missing" + at(context.codingPath)
    case let .typeMismatch(_, context), let .valueNotFound(_, context):
      return context.debugDescription + at(context.codingPath)
    @unknown default:
      return "\(error)"
    }
  }
}
