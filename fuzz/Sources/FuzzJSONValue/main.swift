import Foundation
// libFuzzer target: the CLI's JSON value parser and printer on arbitrary bytes.
import FuzzDriver

@testable import StackJournalCLI

runFuzzer { input in
  let text = String(decoding: input, as: UTF8.self)
  let value = JSONValue(lenient: text)
  let compact = value.compact
  // What it prints is JSON, and reads back as the same value.
  precondition(
    (try? JSONSerialization.jsonObject(with: Data(compact.utf8), options: [.fragmentsAllowed]))
      != nil, "not JSON: \(compact)")
  precondition(JSONValue(lenient: compact).compact == compact, "not stable: \(compact)")
  _ = value.pretty
  _ = Terminal.printable(text)
}
