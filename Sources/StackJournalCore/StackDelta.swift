import StackNavigation

/// What one action did to the stacks of a state: the difference between the stacks before and
/// after it.
///
/// Stored with every journal entry, so the stacks at any sequence can be rebuilt from the
/// nearest snapshot without the application's types.
public struct StackDelta: Equatable, Sendable, Codable {
  /// One change per stack that changed, sorted by path. A stack replaced by another one at the
  /// same path (whose next ID is below the old one's) appears twice: removed, then created.
  public var changes: [StackChange]

  /// Creates a delta from its changes.
  public init(changes: [StackChange] = []) {
    self.changes = changes
  }

  /// Whether the action changed no stack.
  public var isEmpty: Bool { changes.isEmpty }
}

extension StackDelta {
  /// The delta that turns the stacks `before` into the stacks `after`.
  ///
  /// Elements are compared by their encoded state, so the comparison needs no app types.
  public static func between(_ before: [StackRecord], _ after: [StackRecord]) -> StackDelta {
    var changes: [StackChange] = []
    func compare(_ old: StackRecord?, _ new: StackRecord?) {
      switch (old, new) {
      case (let old?, let new?):
        if continues(old, with: new) {
          if let change = change(from: old, to: new) { changes.append(change) }
        } else {
          changes.append(removal(of: old))
          changes.append(creation(of: new))
        }
      case (let old?, nil):
        changes.append(removal(of: old))
      case (nil, let new?):
        changes.append(creation(of: new))
      case (nil, nil):
        break
      }
    }
    if isSortedByPath(before), isSortedByPath(after) {
      // As the stacks of a state are kept: walk both lists together, without tables.
      var oldIndex = 0
      var newIndex = 0
      while oldIndex < before.count || newIndex < after.count {
        let old = oldIndex < before.count ? before[oldIndex] : nil
        let new = newIndex < after.count ? after[newIndex] : nil
        if let old, let new, old.path == new.path {
          compare(old, new)
          oldIndex += 1
          newIndex += 1
        } else if let old, new.map({ old.path < $0.path }) ?? true {
          compare(old, nil)
          oldIndex += 1
        } else {
          compare(nil, new)
          newIndex += 1
        }
      }
      return StackDelta(changes: changes)
    }
    let old = Dictionary(before.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    let new = Dictionary(after.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    for path in Set(old.keys).union(new.keys).sorted() {
      compare(old[path], new[path])
    }
    return StackDelta(changes: changes)
  }

  /// Whether the stacks are in ascending order of path, no path twice.
  private static func isSortedByPath(_ stacks: [StackRecord]) -> Bool {
    zip(stacks, stacks.dropFirst()).allSatisfy { $0.path < $1.path }
  }

  /// Whether `new` is the same stack as `old`, later: its next ID did not go back.
  ///
  /// An ID it gained below `old`'s next ID is an explicit push of an ID popped earlier, which a
  /// stack accepts.
  private static func continues(_ old: StackRecord, with new: StackRecord) -> Bool {
    new.nextID >= old.nextID
  }

  private static func change(from old: StackRecord, to new: StackRecord) -> StackChange? {
    var pushed: [StoredElement] = []
    var changed: [StoredElement] = []
    let popped: [StackElementID]
    let ids = new.ids
    let oldIDs = old.ids
    // The IDs both hold in the same places from the bottom: all of one stack's, after most
    // actions (a push, a pop, a change), so no table is needed.
    var common = 0
    while common < ids.count, common < oldIDs.count, ids[common] == oldIDs[common] {
      common += 1
    }
    if common == ids.count || common == oldIDs.count {
      for index in 0..<common where old.elements[index] != new.elements[index] {
        changed.append(new.elements[index])
      }
      pushed.append(contentsOf: new.elements[common...])
      popped = Array(oldIDs[common...])
    } else {
      let oldElements = Dictionary(
        old.elements.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      for element in new.elements {
        if let previous = oldElements[element.id] {
          if previous != element { changed.append(element) }
        } else {
          pushed.append(element)
        }
      }
      let newIDs = Set(ids)
      popped = oldIDs.filter { !newIDs.contains($0) }
    }
    guard
      !pushed.isEmpty || !popped.isEmpty || !changed.isEmpty || ids != oldIDs
        || new.nextID != old.nextID
    else { return nil }
    return StackChange(
      path: new.path, nextID: new.nextID, ids: ids, pushed: pushed, popped: popped,
      changed: changed
    )
  }

  private static func removal(of old: StackRecord) -> StackChange {
    StackChange(path: old.path, nextID: old.nextID, ids: [], popped: old.ids, removed: true)
  }

  private static func creation(of new: StackRecord) -> StackChange {
    StackChange(path: new.path, nextID: new.nextID, ids: new.ids, pushed: new.elements)
  }
}

extension StackDelta {
  /// Applies the delta to stacks, keeping them sorted by path.
  ///
  /// Throws a ``StorageError`` with code ``StorageError/Code/inconsistentDelta``, leaving
  /// `stacks` unchanged, when the delta does not fit them: a pop or change of an ID the stack
  /// does not hold, a push of an ID it holds, a next ID that goes back, or IDs after the change
  /// that do not match its elements or are not below its next ID. A push of an ID below the
  /// stack's next ID that it does not hold (popped earlier) fits.
  public func apply(to stacks: inout [StackRecord]) throws {
    var result = stacks
    for change in changes {
      let index = result.firstIndex { $0.path == change.path }
      if change.removed {
        guard let index else {
          throw Self.inconsistent(change, "removes a stack that does not exist")
        }
        let held = Set(result[index].ids)
        if let absent = change.popped.first(where: { !held.contains($0) }) {
          throw Self.inconsistent(change, "pops \(absent), which the stack does not hold")
        }
        result.remove(at: index)
      } else if let index {
        result[index] = try Self.applying(change, to: result[index])
      } else {
        let created = try Self.creating(change)
        let position = result.firstIndex { $0.path > created.path } ?? result.endIndex
        result.insert(created, at: position)
      }
    }
    stacks = result
  }

  private static func applying(_ change: StackChange, to stack: StackRecord) throws -> StackRecord {
    var elements = Dictionary(
      stack.elements.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for id in change.popped {
      guard elements.removeValue(forKey: id) != nil else {
        throw inconsistent(change, "pops \(id), which the stack does not hold")
      }
    }
    for element in change.changed {
      guard elements[element.id] != nil else {
        throw inconsistent(change, "changes \(element.id), which the stack does not hold")
      }
      elements[element.id] = element
    }
    for element in change.pushed {
      guard elements[element.id] == nil else {
        throw inconsistent(change, "pushes \(element.id), which the stack already holds")
      }
      elements[element.id] = element
    }
    guard change.nextID >= stack.nextID else {
      throw inconsistent(
        change, "moves the next ID back from \(stack.nextID) to \(change.nextID)")
    }
    return StackRecord(
      path: stack.path, nextID: change.nextID, elements: try ordered(elements, by: change))
  }

  private static func creating(_ change: StackChange) throws -> StackRecord {
    guard change.popped.isEmpty, change.changed.isEmpty else {
      throw inconsistent(change, "pops or changes elements of a stack that does not exist")
    }
    var elements: [StackElementID: StoredElement] = [:]
    for element in change.pushed {
      guard elements.updateValue(element, forKey: element.id) == nil else {
        throw inconsistent(change, "pushes \(element.id) twice")
      }
    }
    return StackRecord(
      path: change.path, nextID: change.nextID, elements: try ordered(elements, by: change))
  }

  /// The elements in the order of `change.ids`, which must list each of them once.
  private static func ordered(
    _ elements: [StackElementID: StoredElement],
    by change: StackChange
  ) throws -> [StoredElement] {
    guard change.ids.count == elements.count else {
      throw inconsistent(
        change,
        "lists \(change.ids.count) IDs after the change but the stack holds \(elements.count) "
          + "elements"
      )
    }
    return try change.ids.map { id in
      guard let element = elements[id] else {
        throw inconsistent(change, "lists \(id) after the change, which the stack does not hold")
      }
      guard id < change.nextID else {
        throw inconsistent(change, "holds \(id), not below the next ID \(change.nextID)")
      }
      return element
    }
  }

  private static func inconsistent(_ change: StackChange, _ problem: String) -> StorageError {
    StorageError(
      code: .inconsistentDelta,
      message: "The change to the stack `\(change.path)` \(problem): the journal does not match "
        + "the stacks it is applied to."
    )
  }
}

extension StackDelta {
  /// The paths of the stacks this delta keeps whose remaining elements sit at other positions
  /// than in `before`: a journal that stores positions rewrites those of the elements that
  /// stayed in them.
  public func reordered(from before: [StackRecord]) -> Set<String> {
    let previous = Dictionary(
      before.map { ($0.path, $0.ids) }, uniquingKeysWith: { first, _ in first })
    var paths: Set<String> = []
    for change in changes where !change.removed {
      guard let old = previous[change.path], Self.moved(old, change.ids) else { continue }
      paths.insert(change.path)
    }
    return paths
  }

  /// Whether an ID kept from `old` to `new` sits at another position.
  private static func moved(_ old: [StackElementID], _ new: [StackElementID]) -> Bool {
    if old.starts(with: new) || new.starts(with: old) { return false }
    let newPositions = Dictionary(
      new.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    for (position, id) in old.enumerated() {
      if let newPosition = newPositions[id], newPosition != position { return true }
    }
    return false
  }}
