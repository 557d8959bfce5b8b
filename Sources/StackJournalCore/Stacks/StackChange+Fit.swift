import StackNavigation

/// What the delta rules look at in a stack: the ID it hands out next, its IDs, bottom first, and
/// whether it is a presented destination (``StackRecord/isPresentation``).
public struct StackShape: Equatable, Sendable {
  public var nextID: StackElementID
  public var ids: [StackElementID]
  public var isPresentation: Bool

  public init(nextID: StackElementID, ids: [StackElementID], isPresentation: Bool = false) {
    self.nextID = nextID
    self.ids = ids
    self.isPresentation = isPresentation
  }
}

extension StackChange {
  /// The delta rules, written once: checks that the change fits the stack at its path, `old`
  /// (`nil` when there is none), and returns the elements that stayed but moved, with their
  /// positions after the change. The stack after the change holds the IDs of ``ids`` in that
  /// order; each is an element of `old` (with its state from ``changed`` when listed there) or
  /// one of ``pushed``.
  ///
  /// A change fits when:
  /// * it removes a stack that exists, popping each of its IDs once and no other;
  /// * otherwise, each ID it pops is held (once), each element it changes is held, not popped
  ///   and changed once, and each element it pushes is neither held after the pops nor pushed
  ///   twice (an ID popped earlier, below the next ID, may be pushed again); the next ID does
  ///   not go back; and ``ids`` lists every element after the change once, and nothing else,
  ///   each below the next ID. A stack that does not exist is an empty one with no next ID to
  ///   keep.
  /// * a change to a presented destination (``isPresentation``) meets a presentation or nothing,
  ///   a change to a stack meets a stack or nothing; a presentation, unless removed, holds `#0`
  ///   alone with next ID 1.
  ///
  /// Throws a ``StorageError`` with code ``StorageError/Code/inconsistentDelta`` when it does
  /// not fit. ``StackDelta/apply(to:)`` and the SQLite journal's stack rows follow these rules;
  /// PostgreSQL's `apply_stack_change` and the report page's `applyChanges` follow them too,
  /// and `Tests/Fixtures/stack-delta-corpus.json` holds the cases all of them run.
  @discardableResult
  public func fit(_ old: StackShape?) throws -> [(id: StackElementID, position: Int)] {
    if let old, old.isPresentation != isPresentation {
      throw inconsistent(
        isPresentation
          ? "changes it as a presentation, but it is a stack"
          : "changes it as a stack, but it is a presentation")
    }
    if isPresentation, !removed, nextID != 1 || ids != [0] {
      throw inconsistent(
        "leaves it holding \(ids) with next ID \(nextID), not #0 alone with next ID 1")
    }
    if !removed, let moved = fitWithoutHashing(old) { return moved }
    return try fitInGeneral(old)
  }

  /// ``fit(_:)`` for every case, with a set of the stack's IDs.
  func fitInGeneral(_ old: StackShape?) throws -> [(id: StackElementID, position: Int)] {
    if removed {
      guard let old else { throw inconsistent("removes a stack that does not exist") }
      var held = Set(old.ids)
      for id in popped where held.remove(id) == nil {
        throw inconsistent(
          old.ids.contains(id)
            ? "pops \(id) twice" : "pops \(id), which the stack does not hold")
      }
      if let kept = held.min() {
        throw inconsistent("removes the stack, which holds \(kept), without popping it")
      }
      return []
    }
    let oldIDs = old?.ids ?? []
    if let old, nextID < old.nextID {
      throw inconsistent("moves the next ID back from \(old.nextID) to \(nextID)")
    }
    var held = Set(oldIDs)
    for id in popped where held.remove(id) == nil {
      throw inconsistent(
        oldIDs.contains(id) ? "pops \(id) twice" : "pops \(id), which the stack does not hold")
    }
    var rewritten: Set<StackElementID> = []
    for element in changed {
      guard held.contains(element.id) else {
        throw inconsistent("changes \(element.id), which the stack does not hold")
      }
      guard rewritten.insert(element.id).inserted else {
        throw inconsistent("changes \(element.id) twice")
      }
    }
    var added: Set<StackElementID> = []
    for element in pushed {
      guard !held.contains(element.id) else {
        throw inconsistent("pushes \(element.id), which the stack already holds")
      }
      guard added.insert(element.id).inserted else {
        throw inconsistent("pushes \(element.id) twice")
      }
    }
    guard ids.count == held.count + added.count else {
      throw inconsistent(
        "lists \(ids.count) IDs after the change but the stack holds "
          + "\(held.count + added.count) elements")
    }
    var listed: Set<StackElementID> = []
    for id in ids {
      guard held.contains(id) || added.contains(id) else {
        throw inconsistent("lists \(id) after the change, which the stack does not hold")
      }
      guard listed.insert(id).inserted else { throw inconsistent("lists \(id) twice") }
      guard id < nextID else { throw inconsistent("holds \(id), not below the next ID \(nextID)") }
    }
    return moved(from: oldIDs)
  }

  /// ``fit(_:)`` for the common case, without a hash of each ID: the IDs before and after the
  /// change increase from bottom to top, as pushes leave them (only a reordering breaks that).
  /// Then the IDs after the change must be the IDs held after the pops merged with the pushed
  /// ones, which sorted lists check in one pass. Returns `nil` when the case does not apply or
  /// the change does not fit: the general check then decides, and says why.
  func fitWithoutHashing(_ old: StackShape?) -> [(id: StackElementID, position: Int)]? {
    let oldIDs = old?.ids ?? []
    if let old, nextID < old.nextID { return nil }
    guard Self.increases(oldIDs), Self.increases(ids), ids.last.map({ $0 < nextID }) ?? true
    else { return nil }
    let poppedIDs = popped.sorted()
    guard Self.increases(poppedIDs), poppedIDs.allSatisfy({ Self.holds(oldIDs, $0) })
    else { return nil }
    let held = poppedIDs.isEmpty ? oldIDs : oldIDs.filter { !Self.holds(poppedIDs, $0) }
    let changedIDs = changed.map(\.id).sorted()
    guard Self.increases(changedIDs), changedIDs.allSatisfy({ Self.holds(held, $0) })
    else { return nil }
    let pushedIDs = pushed.map(\.id).sorted()
    guard Self.increases(pushedIDs), !pushedIDs.contains(where: { Self.holds(held, $0) }),
      ids.count == held.count + pushedIDs.count
    else { return nil }
    var (nextHeld, nextPushed) = (0, 0)
    for id in ids {
      if nextHeld < held.count, held[nextHeld] == id {
        nextHeld += 1
      } else if nextPushed < pushedIDs.count, pushedIDs[nextPushed] == id {
        nextPushed += 1
      } else {
        return nil
      }
    }
    return moved(from: oldIDs)
  }

  /// Whether each ID is above the one before it.
  private static func increases(_ ids: [StackElementID]) -> Bool {
    zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }
  }

  /// Whether `sorted`, increasing, holds `id`.
  private static func holds(_ sorted: [StackElementID], _ id: StackElementID) -> Bool {
    var (low, high) = (0, sorted.count)
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < id { low = middle + 1 } else { high = middle }
    }
    return low < sorted.count && sorted[low] == id
  }

  /// The elements of `oldIDs` that stay in the stack at another position, with their positions
  /// after the change: the one place a stack is found reordered.
  public func moved(from oldIDs: [StackElementID]) -> [(id: StackElementID, position: Int)] {
    // A push or a pop keeps every other element in place.
    if oldIDs.starts(with: ids) || ids.starts(with: oldIDs) { return [] }
    let oldPositions = Dictionary(
      oldIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    var moved: [(id: StackElementID, position: Int)] = []
    for (position, id) in ids.enumerated() {
      if let old = oldPositions[id], old != position { moved.append((id, position)) }
    }
    return moved
  }

  private func inconsistent(_ problem: String) -> StorageError {
    StorageError(
      code: .inconsistentDelta,
      message: "The change to the \(isPresentation ? "presentation" : "stack") `\(path)` "
        + "\(problem): the delta does not match the stacks it is applied to."
    )
  }
}
