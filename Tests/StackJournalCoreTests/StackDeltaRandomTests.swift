// `StackDelta.between` on random pairs of stack lists, against a plain reference: each stack and
// element looked up in tables. The delta walks sorted lists and aligned elements without tables;
// it must give the same changes whatever the stacks' order, and rebuild the stacks after.
import StackJournalCore
import StackJournalDemo
import StackNavigation
import Testing

@Suite struct StackDeltaRandomTests {
  @Test func randomStacksGiveTheReferenceDelta() throws {
    var random = SeededGenerator(seed: 2_026)
    var aligned = 0
    for _ in 0..<3_000 {
      let before = Self.stacks(&random)
      let after = Self.next(before, &random)
      let expected = Self.reference(before, after)
      #expect(StackDelta.between(before, after) == expected)
      #expect(StackDelta.between(before.shuffled(using: &random), after.reversed()) == expected)
      var rebuilt = before
      try expected.apply(to: &rebuilt)
      #expect(rebuilt == after)
      aligned += zip(before, after).filter { $0.path == $1.path && $0.ids == $1.ids }.count
    }
    // Most pairs share a stack whose IDs did not move: the aligned path is the one exercised.
    #expect(aligned > 1_000)
  }

  /// One to four stacks at distinct paths, with up to six elements each.
  static func stacks(_ random: inout SeededGenerator) -> [StackRecord] {
    let paths = ["a", "b", "b[#1].c", "d"].filter { _ in Bool.random(using: &random) }
    return paths.map { path in
      let nextID = Int.random(in: 0...8, using: &random)
      let ids = (0..<nextID).filter { _ in Int.random(in: 0..<3, using: &random) > 0 }.prefix(6)
      return StackRecord(
        path: path, nextID: StackElementID(generation: nextID),
        elements: ids.map { element($0, Int.random(in: 0..<3, using: &random)) })
    }
  }

  /// What an action might make of `stacks`: elements pushed, popped, changed or moved, a stack
  /// created, removed or replaced (its next ID going back).
  static func next(_ stacks: [StackRecord], _ random: inout SeededGenerator) -> [StackRecord] {
    var result: [StackRecord] = []
    for stack in stacks {
      switch Int.random(in: 0..<10, using: &random) {
      case 0:
        continue  // removed
      case 1:
        result.append(StackRecord(path: stack.path, nextID: 1, elements: [element(0, 9)]))
      default:
        var elements = stack.elements
        var nextID = stack.nextID.generation
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
          elements.append(element(nextID, 0))
          nextID += 1
        case 1:
          elements.removeLast(Int.random(in: 0...elements.count, using: &random))
        case 2 where !elements.isEmpty:
          let index = Int.random(in: elements.indices, using: &random)
          elements[index] = element(elements[index].id.generation, 7)
        case 3:
          elements.shuffle(using: &random)
        case 4:
          nextID += 1
        default:
          break
        }
        result.append(
          StackRecord(
            path: stack.path, nextID: StackElementID(generation: nextID), elements: elements))
      }
    }
    if Bool.random(using: &random), !result.contains(where: { $0.path == "e" }) {
      result.append(StackRecord(path: "e", nextID: 2, elements: [element(0, 1), element(1, 2)]))
    }
    return result.sorted { $0.path < $1.path }
  }

  static func element(_ generation: Int, _ count: Int) -> StoredElement {
    StoredElement(
      id: StackElementID(generation: generation), caseName: "counter",
      state: #"{"counter":{"_0":{"count":\#(count)}}}"#)
  }

  /// The delta found through tables, as the definition reads: per path, per element ID.
  static func reference(_ before: [StackRecord], _ after: [StackRecord]) -> StackDelta {
    let old = Dictionary(uniqueKeysWithValues: before.map { ($0.path, $0) })
    let new = Dictionary(uniqueKeysWithValues: after.map { ($0.path, $0) })
    var changes: [StackChange] = []
    for path in Set(old.keys).union(new.keys).sorted() {
      let removal = old[path].map {
        StackChange(path: path, nextID: $0.nextID, ids: [], popped: $0.ids, removed: true)
      }
      let creation = new[path].map {
        StackChange(path: path, nextID: $0.nextID, ids: $0.ids, pushed: $0.elements)
      }
      guard let before = old[path], let after = new[path] else {
        changes += [removal, creation].compactMap { $0 }
        continue
      }
      guard after.nextID >= before.nextID else {
        changes += [removal!, creation!]
        continue
      }
      let elements = Dictionary(uniqueKeysWithValues: before.elements.map { ($0.id, $0) })
      let pushed = after.elements.filter { elements[$0.id] == nil }
      let changed = after.elements.filter { element in
        elements[element.id].map { $0 != element } ?? false
      }
      let popped = before.ids.filter { !after.ids.contains($0) }
      if pushed.isEmpty, changed.isEmpty, popped.isEmpty, after.ids == before.ids,
        after.nextID == before.nextID
      {
        continue
      }
      changes.append(
        StackChange(
          path: path, nextID: after.nextID, ids: after.ids, pushed: pushed, popped: popped,
          changed: changed))
    }
    return StackDelta(changes: changes)
  }
}
