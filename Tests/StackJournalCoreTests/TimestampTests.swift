import Foundation
import StackJournalCore
import XCTest

final class TimestampTests: XCTestCase {
  /// Found by fuzzing: a leap second read as the next second turned 9999-12-31T23:59:60.999Z
  /// into `+10000-01-01…`, which the stored form cannot read back. Leap seconds are refused.
  func testALeapSecondIsNotAStoredTime() {
    XCTAssertNil(Timestamp.date(from: "9999-12-31T23:59:60.999Z"))
    XCTAssertNil(Timestamp.date(from: "2026-06-30T23:59:60.000Z"))
    let last = Timestamp.date(from: "9999-12-31T23:59:59.999Z")
    XCTAssertEqual(last.map(Timestamp.string(from:)), "9999-12-31T23:59:59.999Z")
  }

  /// Found by fuzzing: November 31st read as December 1st. A day the month lacks is refused.
  func testADayTheMonthDoesNotHaveIsNotAStoredTime() {
    XCTAssertNil(Timestamp.date(from: "2026-11-31T14:02:26.123Z"))
    XCTAssertNil(Timestamp.date(from: "2025-02-29T00:00:00.000Z"))
    XCTAssertNotNil(Timestamp.date(from: "2024-02-29T00:00:00.000Z"))
    XCTAssertNotNil(Timestamp.date(from: "2026-12-31T00:00:00.000Z"))
  }

  /// The stored form orders as text only with four-digit years: its range is 0000–9999, to
  /// the millisecond a date rounds to.
  func testTheStoredRangeIsTheYears0000Through9999() throws {
    XCTAssertEqual(Timestamp.string(from: Timestamp.earliest), "0000-01-01T00:00:00.000Z")
    XCTAssertEqual(Timestamp.string(from: Timestamp.latest), "9999-12-31T23:59:59.999Z")
    XCTAssertTrue(Timestamp.isStorable(Timestamp.latest))
    XCTAssertTrue(Timestamp.isStorable(Timestamp.earliest))
    XCTAssertTrue(Timestamp.isStorable(Date.distantFuture))
    XCTAssertTrue(Timestamp.isStorable(Date.distantPast))
    XCTAssertFalse(Timestamp.isStorable(Timestamp.latest.addingTimeInterval(0.0006)))
    XCTAssertFalse(Timestamp.isStorable(Timestamp.earliest.addingTimeInterval(-0.001)))
    XCTAssertFalse(Timestamp.isStorable(Date(timeIntervalSince1970: .infinity)))
    XCTAssertFalse(Timestamp.isStorable(Date(timeIntervalSince1970: .nan)))
  }

  /// Year 0 exists in the stored (proleptic Gregorian) form, and years before it keep four
  /// digits after their sign.
  func testYearZeroAndEarlierYears() throws {
    let zero = try XCTUnwrap(Timestamp.midnight(year: 0, month: 1, day: 1))
    XCTAssertEqual(Timestamp.string(from: zero), "0000-01-01T00:00:00.000Z")
    XCTAssertEqual(Timestamp.date(from: "0000-01-01T00:00:00.000Z"), zero)
    XCTAssertEqual(
      Timestamp.string(from: zero.addingTimeInterval(-86_400)), "-0001-12-31T00:00:00.000Z")
    XCTAssertNil(Timestamp.midnight(year: 2025, month: 2, day: 29))
    XCTAssertNotNil(Timestamp.midnight(year: 2024, month: 2, day: 29))
  }

  /// Times of the years 0000–9999, written digit by digit, read back as the same time, and
  /// the fields land where the stored form has them.
  func testTimesOfFourDigitYearsReadBack() throws {
    XCTAssertEqual(
      Timestamp.string(from: Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00.000Z")
    XCTAssertEqual(
      Timestamp.string(from: Date(timeIntervalSince1970: 1_738_315_800.123)),
      "2025-01-31T09:30:00.123Z")
    XCTAssertEqual(
      Timestamp.string(from: Date(timeIntervalSince1970: -0.001)), "1969-12-31T23:59:59.999Z")
    let first = try XCTUnwrap(Timestamp.midnight(year: 0, month: 1, day: 1))
    let last = try XCTUnwrap(Timestamp.date(from: "9999-12-31T23:59:59.999Z"))
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let milliseconds = Int64.random(
        in: Int64(first.timeIntervalSince1970 * 1000)...Int64(last.timeIntervalSince1970 * 1000),
        using: &generator)
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      let text = Timestamp.string(from: date)
      XCTAssertEqual(text.utf8.count, 24, text)
      XCTAssertEqual(Timestamp.date(from: text), Timestamp.rounded(date), text)
    }
  }
}
