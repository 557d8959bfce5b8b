import Foundation
// libFuzzer target: the JSON scanner that splits export lines into members, and the JSON
// validity check, on arbitrary bytes.
import FuzzDriver

@testable import StackJournalCore

runFuzzer { input in
  let bytes = Array(input)[...]
  var scanner = JSONScanner(bytes: bytes)
  if let members = scanner.objectMembers() {
    for (_, value) in members {
      precondition(value.startIndex >= bytes.startIndex && value.endIndex <= bytes.endIndex)
      var inner = JSONScanner(bytes: value)
      _ = inner.skipValue()
    }
  }
  var whole = JSONScanner(bytes: bytes)
  if whole.skipValue() {
    precondition(whole.offset <= bytes.endIndex)
  }
  let isJSON = JSONText.isJSON(bytes)
  if isJSON, let text = String(bytes: bytes, encoding: .utf8) {
    // A string literal of any text is JSON again.
    precondition(JSONText.isJSON(Array(JSONText.literal(text).utf8)))
  }
  _ = JSONText.caseName(of: Data(bytes))
}
