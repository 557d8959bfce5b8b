// libFuzzer target: the CLI's time expressions and the stored time format.
import Foundation
import StackStorage
@testable import StackJournalCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  if case .instant(let date)? = TimeExpression.parse(text) {
    let stored = Timestamp.string(from: date)
    if let back = Timestamp.date(from: stored) {
      precondition(Timestamp.string(from: back) == stored, "not stable: \(stored)")
    }
  }
  if let date = Timestamp.date(from: text) {
    // A stored time prints back as itself (a leap second aside, which rolls over).
    let printed = Timestamp.string(from: date)
    precondition(Timestamp.date(from: printed) == date, "\(text) → \(printed)")
  }
  return 0
}
