import Foundation
// libFuzzer target: the CLI's time expressions and the stored time format.
import FuzzDriver
import StackStorage

@testable import StackJournalCLI

runFuzzer { input in
  let text = String(decoding: input, as: UTF8.self)
  if case .instant(let date)? = TimeExpression.parse(text) {
    let stored = Timestamp.string(from: date)
    if let back = Timestamp.date(from: stored) {
      precondition(Timestamp.string(from: back) == stored, "not stable: \(stored)")
    }
    // Only a time the stored form holds reads back, and only such a time is taken when a
    // command reads the option: `+10000-…` would sort below `2026-…`.
    let storable = Timestamp.isStorable(date)
    precondition((Timestamp.date(from: stored) != nil) == storable, "\(text) → \(stored)")
    let taken = (try? TimeExpression(argument: text).readable(option: "--since")) != nil
    precondition(taken == storable, "\(text): storable \(storable), taken \(taken)")
  }
  if let date = Timestamp.date(from: text) {
    // A stored time prints back as itself.
    let printed = Timestamp.string(from: date)
    precondition(printed == text, "\(text) → \(printed)")
  }
}
