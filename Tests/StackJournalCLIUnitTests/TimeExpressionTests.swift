import Foundation
import StackStorage
import Testing

@testable import StackJournalCLI

/// The times the CLI reads, form by form.
struct TimeExpressionTests {
  static func at(_ text: String) -> TimeExpression.Kind {
    .instant(Timestamp.date(from: text)!)
  }

  static let readable: [(String, TimeExpression.Kind)] = [
    ("2026-11-21T14:02:00Z", at("2026-11-21T14:02:00.000Z")),
    ("2026-11-21T14:02Z", at("2026-11-21T14:02:00.000Z")),
    ("2026-11-21t14:02:00z", at("2026-11-21T14:02:00.000Z")),
    ("2026-11-21T14:02:00.250+01:00", at("2026-11-21T13:02:00.250Z")),
    ("2026-11-21T14:02:00-0530", at("2026-11-21T19:32:00.000Z")),
    ("2026-11-21T14:02", at("2026-11-21T14:02:00.000Z")),
    ("2026-11-21 14:02", at("2026-11-21T14:02:00.000Z")),
    ("2026-11-21", at("2026-11-21T00:00:00.000Z")),
    ("  2026-11-21  ", at("2026-11-21T00:00:00.000Z")),
    ("0000-01-01", at("0000-01-01T00:00:00.000Z")),
    ("14:02", .clock(seconds: 14 * 3600 + 2 * 60)),
    ("14:02:03", .clock(seconds: 14 * 3600 + 2 * 60 + 3)),
    ("14:02:03.5", .clock(seconds: 14 * 3600 + 2 * 60 + 3.5)),
  ]

  @Test(arguments: readable)
  func readsTheAcceptedForms(_ text: String, _ kind: TimeExpression.Kind) throws {
    let time = TimeExpression(argument: text)
    #expect(time.kind == kind)
    #expect(try time.readable(option: "--at-time") == kind)
  }

  static let unreadable = [
    "", "yesterday", "25:00", "14:60", "2026-13-01", "2026-11-32", "2026-11-21T14:02:00+25:00",
    "2026-11-21T14", "2026-11-21T14:02:00Zjunk", "2026/11/21", "14:02:03.", "1e5", "١٤:٠٢",
  ]

  @Test(arguments: unreadable)
  func refusesAnythingElseWhenTheCommandRuns(_ text: String) {
    let time = TimeExpression(argument: text)
    #expect(time.kind == nil)
    #expect(throws: CLIFailure.self) { try time.readable(option: "--since") }
    do {
      _ = try time.readable(option: "--since")
    } catch let failure as CLIFailure {
      #expect(failure.message.contains("Cannot read the time '\(text)' of --since"))
      #expect(failure.message.contains("2026-11-21T14:02:00Z"))
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  /// Times an offset moves out of years 0000–9999 in UTC, whose stored text would not sort in
  /// time order (`+10000-…` below `2026-…`): read, then refused with the range a journal holds.
  static let outOfRange = [
    ("9999-12-31T23:00-01:00", "after"), ("9999-12-31T23:59:59.9996Z", "after"),
    ("0000-01-01T00:30+01:00", "before"),
  ]

  @Test(arguments: outOfRange)
  func refusesATimeOutsideTheStoredRange(_ text: String, _ side: String) {
    let time = TimeExpression(argument: text)
    #expect(time.kind != nil)
    do {
      _ = try time.readable(option: "--until")
      Issue.record("\(text) was taken")
    } catch let failure as CLIFailure {
      #expect(failure.message.contains("The time '\(text)' of --until is"))
      #expect(failure.message.contains("\(side) the times a journal holds"))
      #expect(failure.message.contains("0000-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z"))
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test func theLastAndFirstMillisecondsOfTheStoredRangeAreTaken() throws {
    for text in ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.9994Z", "0000-01-01T00:00Z"] {
      #expect(throws: Never.self) { try TimeExpression(argument: text).instant(option: "--since") }
    }
  }

  @Test func aClockTimeHasNoInstantWithoutASession() {
    #expect(throws: CLIFailure.self) {
      try TimeExpression(argument: "14:02").instant(option: "--idle-since")
    }
  }
}
