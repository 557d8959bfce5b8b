// libFuzzer target: stored stack paths (`path[#3].counter.path`) read against an encoded state.
import Foundation
@testable import StackRestoration

private let document: Any = try! JSONSerialization.jsonObject(
  with: Data(
    #"{"path":{"elements":[{"id":3,"state":{"counter":{"_0":{"path":{"elements":[],"nextID":0}}}}}],"nextID":4},"tabs":[{"path":{"elements":[],"nextID":0}}],"sheets":{"42":{"path":{"elements":[],"nextID":1}}}}"#
      .utf8))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  _ = StackLocator.tokens(of: text)
  if let updated = StackLocator.updatingStack(at: text, in: document, { $0["nextID"] = 9 }) {
    precondition(JSONSerialization.isValidJSONObject(updated))
  }
  return 0
}
