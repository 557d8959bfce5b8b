import Foundation
import StackNavigation
import StackStorage

/// The state a benchmark session navigates: a stack of counters, like the demo app's path.
struct BenchState: Codable {
  struct Counter: Codable {
    var count = 0
  }

  enum Screen: Codable {
    case counter(Counter)
  }

  var path = StackState<Screen>()
  var title = "Bench"
}

/// Pre-encoded actions for a session: push, increment, increment, pop, … so the measured runs
/// time `append` alone, not the app's encoding.
enum Workload {
  static func drafts(count: Int) throws -> [JournalEntryDraft] {
    var state = BenchState()
    var drafts: [JournalEntryDraft] = []
    drafts.reserveCapacity(count)
    for index in 0..<count {
      let type: String
      let payload: String
      switch index % 4 {
      case 0 where state.path.count < 6:
        let id = state.path.nextID
        state.path.append(.counter(BenchState.Counter()))
        type = "path.push"
        payload = #"{"push":{"id":\#(id.generation),"state":{"counter":{"_0":{"count":0}}}}}"#
      case 3 where !state.path.isEmpty:
        let id = state.path.ids.last!
        state.path.pop(from: id)
        type = "path.popFrom"
        payload = #"{"popFrom":{"id":\#(id.generation)}}"#
      default:
        if let id = state.path.ids.last, case .counter(var counter) = state.path[id: id] {
          counter.count += 1
          state.path[id: id] = .counter(counter)
          type = "path.element.counter.incrementButtonTapped"
          payload =
            #"{"element":{"action":{"counter":{"_0":{"incrementButtonTapped":{}}}},"#
            + #""id":\#(id.generation)}}"#
        } else {
          state.title += "."
          type = "titleChanged"
          payload = #"{"titleChanged":{}}"#
        }
      }
      drafts.append(
        JournalEntryDraft(
          type: type, version: 1, payload: Data(payload.utf8),
          state: try StateEncoding.encode(state)))
    }
    return drafts
  }

  static func initialState() throws -> EncodedState {
    try StateEncoding.encode(BenchState())
  }
}
