import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import XCTest

/// `StackState` against a reference model: random sequences of every operation that changes a
/// stack, from fixed seeds, checked after each step.
///
/// The model is an array of `(id, element)` pairs and the next ID as plain integers. After each
/// step: the stack's IDs, elements and next ID equal the model's; IDs are unique and below the
/// next ID; the next ID never decreases; an ID handed out is never handed out again; and
/// `decode(encode(stack))` equals the stack and keeps its next ID.
final class StackStatePropertyTests: XCTestCase {
  private struct Model {
    var entries: [(id: Int, element: Int)] = []
    var next = 0
  }

  private enum Operation: CaseIterable {
    case append, insert, removeAt, popFrom, popTo, popLast, filter, prepend, setExisting,
      removeByID, setNewID, removeAll, roundTrip
  }

  func testRandomOperationsAgreeWithTheModel() throws {
    let seeds: UInt64 = 600
    let steps = 200
    var counts: [String: Int] = [:]
    for seed in 0..<seeds {
      var random = SeededGenerator(seed: seed)
      var stack = StackState<Int>()
      var model = Model()
      var handedOut = Set<Int>()
      var previousNext = 0
      for step in 0..<steps {
        let operation = Operation.allCases.randomElement(using: &random)!
        counts["\(operation)", default: 0] += 1
        let value = Int.random(in: -1000...1000, using: &random)
        let before = Set(model.entries.map(\.id))
        switch operation {
        case .append:
          stack.append(value)
          model.entries.append((model.next, value))
          model.next += 1
        case .insert:
          let index = Int.random(in: 0...model.entries.count, using: &random)
          stack.insert(value, at: index)
          model.entries.insert((model.next, value), at: index)
          model.next += 1
        case .removeAt:
          guard !model.entries.isEmpty else { continue }
          let index = Int.random(in: 0..<model.entries.count, using: &random)
          XCTAssertEqual(stack.remove(at: index), model.entries.remove(at: index).element)
        case .popFrom, .popTo:
          let id = pickID(model, &random)
          let index = model.entries.firstIndex { $0.id == id }
          let popped =
            operation == .popFrom
            ? stack.pop(from: StackElementID(generation: id))
            : stack.pop(to: StackElementID(generation: id))
          XCTAssertEqual(popped, index != nil)
          if let index {
            model.entries.removeSubrange((operation == .popFrom ? index : index + 1)...)
          }
        case .popLast:
          XCTAssertEqual(stack.popLast(), model.entries.popLast()?.element)
        case .filter:
          let divisor = Int.random(in: 2...4, using: &random)
          stack = stack.filter { $0 % divisor != 0 }
          model.entries.removeAll { $0.element % divisor == 0 }
        case .prepend:
          let count = Int.random(in: 0...3, using: &random)
          let values = (0..<count).map { value + $0 }
          stack = values + stack
          let ids = (0..<count).map { model.next + $0 }
          model.entries.insert(contentsOf: zip(ids, values).map { ($0, $1) }, at: 0)
          model.next += count
        case .setExisting:
          guard let entry = model.entries.randomElement(using: &random) else { continue }
          stack[id: StackElementID(generation: entry.id)] = value
          let index = model.entries.firstIndex { $0.id == entry.id }!
          model.entries[index].element = value
        case .removeByID:
          let id = pickID(model, &random)
          stack[id: StackElementID(generation: id)] = nil
          model.entries.removeAll { $0.id == id }
        case .setNewID:
          // An ID never handed out: the element goes on top under it, the next ID above it.
          let id = model.next + Int.random(in: 0...3, using: &random)
          stack[id: StackElementID(generation: id)] = value
          model.entries.append((id, value))
          model.next = id + 1
        case .removeAll:
          stack.removeAll()
          model.entries.removeAll()
        case .roundTrip:
          let data = try JSONEncoder().encode(stack)
          let decoded = try JSONDecoder().decode(StackState<Int>.self, from: data)
          XCTAssertEqual(decoded, stack, "seed \(seed) step \(step)")
          XCTAssertEqual(decoded.nextID, stack.nextID, "seed \(seed) step \(step)")
          stack = decoded
        }
        let place = "seed \(seed) step \(step) \(operation)"
        XCTAssertEqual(stack.ids.map(\.generation), model.entries.map(\.id), place)
        XCTAssertEqual(Array(stack), model.entries.map(\.element), place)
        XCTAssertEqual(stack.nextID.generation, model.next, place)
        XCTAssertGreaterThanOrEqual(stack.nextID.generation, previousNext, place)
        previousNext = stack.nextID.generation
        XCTAssertEqual(Set(stack.ids).count, stack.ids.count, place)
        XCTAssertTrue(stack.ids.allSatisfy { $0 < stack.nextID }, place)
        let new = Set(model.entries.map(\.id)).subtracting(before)
        XCTAssertTrue(new.isDisjoint(with: handedOut), "\(place): an ID came back: \(new)")
        handedOut.formUnion(new)
        // The encoding round trip holds at every step, not only when drawn.
        let again = try JSONDecoder().decode(
          StackState<Int>.self, from: try JSONEncoder().encode(stack))
        XCTAssertEqual(again, stack, place)
        XCTAssertEqual(again.nextID, stack.nextID, place)
        if testRun?.failureCount ?? 0 > 0 { return }
      }
    }
    print(
      "StackState property test: \(seeds) seeds × \(steps) steps = \(Int(seeds) * steps) "
        + "operations: "
        + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        .joined(separator: ", "))
  }

  /// An ID the model holds, one it handed out and no longer holds, or one never handed out.
  private func pickID(_ model: Model, _ random: inout SeededGenerator) -> Int {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return Int.random(in: 0...(model.next + 2), using: &random)
    default: return model.entries.randomElement(using: &random)?.id ?? model.next
    }
  }
}
