import Foundation
// libFuzzer target: decoding StackState and StackAction from arbitrary JSON; whatever decodes
// keeps its invariants and survives an encoding round trip.
import FuzzDriver
import StackNavigation

runFuzzer { input in
  let bytes = Data(input)
  if let stack = try? JSONDecoder().decode(StackState<Int>.self, from: bytes) {
    precondition(Set(stack.ids).count == stack.ids.count, "repeated IDs")
    precondition(stack.ids.allSatisfy { $0 < stack.nextID }, "an ID not below the next")
    let again = try! JSONDecoder().decode(
      StackState<Int>.self, from: try! JSONEncoder().encode(stack))
    precondition(again == stack && again.nextID == stack.nextID, "round trip")
    var copy = stack
    if copy.nextID < StackElementID.largest {
      let next = copy.nextID
      copy.append(0)
      precondition(copy.ids.last == next)
    }
  }
  if let action = try? JSONDecoder().decode(StackAction<Int, String>.self, from: bytes) {
    let again = try! JSONDecoder().decode(
      StackAction<Int, String>.self, from: try! JSONEncoder().encode(action))
    precondition(again == action, "round trip")
  }
  _ = try? JSONDecoder().decode(StackElementID.self, from: bytes)
}
