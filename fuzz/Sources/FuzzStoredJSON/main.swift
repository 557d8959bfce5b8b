import Foundation
// libFuzzer target: the one check of stored JSON (appends, import, verify and export use it),
// on arbitrary bytes, against Foundation's JSON parser, which the journal's readers use.
import FuzzDriver

@testable import StackStorage

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
  } else if parsed, String(data: data, encoding: .utf8) != nil, !data.contains(0),
    JSONText.nesting(of: data) <= JSONText.maximumNesting
  {
    // Refused although it is JSON every reader takes: the check is stricter than it says.
    preconditionFailure("refused readable JSON: \(problem!)")
  }
}
