import Foundation
// libFuzzer target: stored stack paths (`path[#3].counter.path`) written into an encoded state
// by the finder of stacks in stored JSON, as restoration writes recorded stacks.
import FuzzDriver

@testable import StackJournalCore

private let tape = JSONTape(
  #"{"path":{"elements":[{"id":3,"state":{"counter":{"_0":{"path":{"elements":[],"nextID":0}}}}}],"nextID":4},"tabs":[{"path":{"elements":[],"nextID":0}}],"sheets":{"42":{"path":{"elements":[],"nextID":1}}}}"#
)!

runFuzzer { input in
  let path = String(decoding: input, as: UTF8.self)
  let stack = StackRecord(path: path, nextID: 9, elements: [])
  let (bytes, unplaced) = tape.overlaying([stack])
  // Whatever the path, the result is JSON; a stack written is found at its path.
  let written = JSONTape(String(decoding: bytes, as: UTF8.self))
  precondition(written != nil, "overlaying wrote text that is not JSON")
  if unplaced.isEmpty, !path.contains("[#") {
    precondition(
      written!.stacks().contains { $0.path == path && $0.nextID == 9 },
      "the stack written is not at its path")
  }
}
