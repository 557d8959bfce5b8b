import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation

// Small Codable types standing in for an app's state: a root with two tabs, each a stack of
// screens, where the `detail` screen holds a stack of its own.

struct Counter: Codable, Equatable, Sendable {
  var count = 0
}

struct Detail: Codable, Equatable, Sendable {
  var title: String
  var path = StackState<Screen>()
}

enum Screen: Codable, Equatable, Sendable {
  case counter(Counter)
  case detail(Detail)
  case home
}

struct Root: Codable, Equatable, Sendable {
  var tabA = StackState<Screen>()
  var tabB = StackState<Screen>()
  var selectedTab = "tabA"
}

/// Drives a ``Root`` through random navigation actions, the way a reducer would, and names each
/// action as a journal would record it.
struct Simulation {
  var root = Root()
  var random: SeededGenerator

  init(seed: UInt64) {
    random = SeededGenerator(seed: seed)
  }

  /// Performs one action on `root` and returns its type and payload.
  mutating func step() -> (type: String, payload: Data) {
    let tab = Bool.random(using: &random) ? "tabA" : "tabB"
    var stack = tab == "tabA" ? root.tabA : root.tabB
    defer {
      if tab == "tabA" { root.tabA = stack } else { root.tabB = stack }
    }
    let roll = Int.random(in: 0..<100, using: &random)
    switch roll {
    case 0..<25 where stack.count < 8:
      let screen: Screen =
        Bool.random(using: &random)
        ? .counter(Counter(count: Int.random(in: 0..<10, using: &random)))
        : .detail(Detail(title: "detail \(stack.nextID.generation)"))
      let id = stack.nextID
      stack.append(screen)
      return action("\(tab).push", ["id": id.generation])
    case 0..<40:
      guard let id = stack.ids.last else { return selectTab(tab) }
      stack.pop(from: id)
      return action("\(tab).popFrom", ["id": id.generation])
    case 40..<45:
      guard let id = stack.ids.randomElement(using: &random) else { return selectTab(tab) }
      stack.pop(from: id)
      return action("\(tab).popFrom", ["id": id.generation])
    case 45..<75:
      guard let id = stack.ids.randomElement(using: &random) else { return selectTab(tab) }
      switch stack[id: id] {
      case .counter(var counter):
        counter.count += 1
        stack[id: id] = .counter(counter)
        return action("\(tab).element.counter.incrementButtonTapped", ["id": id.generation])
      case .detail(var detail):
        if detail.path.count < 4, Bool.random(using: &random) {
          detail.path.append(.counter(Counter()))
        } else if let last = detail.path.ids.last {
          detail.path.pop(from: last)
        } else {
          detail.title += "!"
        }
        stack[id: id] = .detail(detail)
        return action("\(tab).element.detail.path", ["id": id.generation])
      case .home, nil:
        return selectTab(tab)
      }
    default:
      return selectTab(tab)
    }
  }

  private mutating func selectTab(_ tab: String) -> (type: String, payload: Data) {
    root.selectedTab = tab
    return action("selectTab", ["tab": tab])
  }

  private func action(_ type: String, _ payload: [String: any Sendable]) -> (String, Data) {
    (type, try! JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
  }
}
