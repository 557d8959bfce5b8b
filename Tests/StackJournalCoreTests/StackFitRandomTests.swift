// `StackChange.fit`'s check without hashing against its general check, on random stacks and
// random changes, most of which do not fit: whenever the check without hashing answers, the
// general one must accept the change too, with the same moved elements.
import StackJournalDemo
import StackNavigation
import Testing

@testable import StackJournalCore

@Suite struct StackFitRandomTests {
  @Test func theCheckWithoutHashingAgreesWithTheGeneralOne() throws {
    var random = SeededGenerator(seed: 28)
    var (answered, accepted) = (0, 0)
    for _ in 0..<20_000 {
      let old = Self.shape(&random)
      let change = Self.change(of: old, &random)
      let general = try? change.fitInGeneral(old)
      if general != nil { accepted += 1 }
      guard let fast = change.fitWithoutHashing(old) else { continue }
      answered += 1
      let expected = try #require(
        general, "accepted without hashing only: \(change) on \(String(describing: old))")
      #expect(fast.map(\.id) == expected.map(\.id) && fast.map(\.position) == expected.map(\.position))
    }
    // The cases are not all refused, and the check without hashing answers most accepted ones.
    #expect(accepted > 2_000)
    #expect(answered > accepted / 2)
  }

  /// A stack of up to eight IDs below its next ID, usually increasing, sometimes not; or none.
  static func shape(_ random: inout SeededGenerator) -> StackShape? {
    if Int.random(in: 0..<8, using: &random) == 0 { return nil }
    let next = Int.random(in: 0..<12, using: &random)
    var ids = (0..<next).filter { _ in Bool.random(using: &random) }
    if Int.random(in: 0..<5, using: &random) == 0 { ids.shuffle(using: &random) }
    return StackShape(
      nextID: StackElementID(generation: next), ids: ids.map { StackElementID(generation: $0) })
  }

  /// A change that pops, changes and pushes a few IDs, drawn from the stack's and from around
  /// it, listing the IDs that result, or, now and then, something slightly off.
  static func change(of old: StackShape?, _ random: inout SeededGenerator) -> StackChange {
    let oldIDs = old?.ids.map(\.generation) ?? []
    let oldNext = old?.nextID.generation ?? 0
    func some(_ from: [Int]) -> [Int] {
      from.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
    }
    func maybe(_ list: inout [Int]) {
      if Int.random(in: 0..<10, using: &random) == 0 {
        list.append(Int.random(in: 0..<14, using: &random))
      }
    }
    var popped = some(oldIDs)
    maybe(&popped)
    let held = oldIDs.filter { !popped.contains($0) }
    var changed = some(held)
    maybe(&changed)
    var next = oldNext + Int.random(in: 0..<3, using: &random)
    var pushed = Array(oldNext..<next)
    maybe(&pushed)
    if Int.random(in: 0..<12, using: &random) == 0 { next = max(0, next - 2) }
    var ids = held + pushed
    switch Int.random(in: 0..<12, using: &random) {
    case 0: ids.shuffle(using: &random)
    case 1: ids.append(Int.random(in: 0..<14, using: &random))
    case 2: if !ids.isEmpty { ids.removeLast() }
    default: break
    }
    let element = { (id: Int) in
      StoredElement(id: StackElementID(generation: id), caseName: "e", state: #"{"e":{}}"#)
    }
    return StackChange(
      path: "p", nextID: StackElementID(generation: next),
      ids: ids.map { StackElementID(generation: $0) }, pushed: pushed.map(element),
      popped: popped.map { StackElementID(generation: $0) }, changed: changed.map(element))
  }
}
