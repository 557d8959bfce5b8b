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
  }
  if let date = Timestamp.date(from: text) {
    // A stored time prints back as itself.
    let printed = Timestamp.string(from: date)
    precondition(printed == text, "\(text) → \(printed)")
  }
}
