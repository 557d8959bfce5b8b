import Foundation
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

/// A deterministic random number generator (SplitMix64), so the journal tests replay the same
/// actions on every run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Drives a ``Root`` through random navigation actions, the way a reducer would, and names each
/// action as a journal would record it.
struct Simulation {
  var root = Root()
  var random: SplitMix64

  init(seed: UInt64) {
    random = SplitMix64(state: seed)
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
