// libFuzzer target: the CLI's JSON value parser and printer on arbitrary bytes.
import Foundation
@testable import StackJournalCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let value = JSONValue(lenient: text)
  let compact = value.compact
  // What it prints is JSON, and reads back as the same value.
  precondition(
    (try? JSONSerialization.jsonObject(with: Data(compact.utf8), options: [.fragmentsAllowed]))
      != nil, "not JSON: \(compact)")
  precondition(JSONValue(lenient: compact).compact == compact, "not stable: \(compact)")
  _ = value.pretty
  _ = Terminal.printable(text)
  return 0
}
