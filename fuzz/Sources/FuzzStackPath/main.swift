import Foundation
// libFuzzer target: stored stack paths (`path[#3].counter.path`) read against an encoded state.
import FuzzDriver

@testable import StackRestoration

private let document: Any = try! JSONSerialization.jsonObject(
  with: Data(
    #"{"path":{"elements":[{"id":3,"state":{"counter":{"_0":{"path":{"elements":[],"nextID":0}}}}}],"nextID":4},"tabs":[{"path":{"elements":[],"nextID":0}}],"sheets":{"42":{"path":{"elements":[],"nextID":1}}}}"#
      .utf8))

runFuzzer { input in
  let text = String(decoding: input, as: UTF8.self)
  if let updated = StackLocator.updatingStack(at: text, in: document, { $0["nextID"] = 9 }) {
    precondition(JSONSerialization.isValidJSONObject(updated))
  }
}
