import Foundation
// libFuzzer target: the one check of stored JSON (appends, import, verify and export use it),
// on arbitrary bytes, against Foundation's JSON parser, which the journal's readers use.
import FuzzDriver

@testable import StackJournalCore

runFuzzer { input in
  let data = Data(input)
  let problem = JSONText.storageProblem(data)
  let parsed =
    (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
  if problem == nil {
    // Accepted: UTF-8 without NUL, nested at most 512 deep, and readable by every reader.
    precondition(String(data: data, encoding: .utf8) != nil)
    precondition(!data.contains(0))
    precondition(JSONText.nesting(of: data) <= JSONText.maximumNesting)
    precondition(parsed, "stored JSON that Foundation cannot read")
  }
  // The other way round does not hold, and need not: Foundation's parser on Linux also takes
  // what RFC 8259 and the report page's `JSON.parse` refuse (`[[],]`, a trailing comma, found
  // by this target), and the stored check follows the RFC.
}
