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

  /// Whether `new` is the same stack as `old`, later: its next ID did not go back, and both are
  /// stacks or both presentations.
  ///
  /// An ID it gained below `old`'s next ID is an explicit push of an ID popped earlier, which a
  /// stack accepts.
  private static func continues(_ old: StackRecord, with new: StackRecord) -> Bool {
    new.nextID >= old.nextID && new.isPresentation == old.isPresentation
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
      changed: changed, isPresentation: new.isPresentation
    )
  }

  private static func removal(of old: StackRecord) -> StackChange {
    StackChange(
      path: old.path, nextID: old.nextID, ids: [], popped: old.ids, removed: true,
      isPresentation: old.isPresentation)
  }

  private static func creation(of new: StackRecord) -> StackChange {
    StackChange(
      path: new.path, nextID: new.nextID, ids: new.ids, pushed: new.elements,
      isPresentation: new.isPresentation)
  }
}

extension StackDelta {
  /// Applies the delta to stacks, keeping them sorted by path.
  ///
  /// Throws a ``StorageError`` with code ``StorageError/Code/inconsistentDelta``, leaving
  /// `stacks` unchanged, when a change does not fit them (``StackChange/fit(_:)`` says which
  /// changes fit).
  public func apply(to stacks: inout [StackRecord]) throws {
    var result = stacks
    for change in changes {
      let index = result.firstIndex { $0.path == change.path }
      let old = index.map { result[$0] }
      try change.fit(
        old.map { StackShape(nextID: $0.nextID, ids: $0.ids, isPresentation: $0.isPresentation) })
      if change.removed, let index {
        result.remove(at: index)
        continue
      }
      var elements = Dictionary(
        (old?.elements ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      for id in change.popped { elements[id] = nil }
      for element in change.changed { elements[element.id] = element }
      for element in change.pushed { elements[element.id] = element }
      // `fit` checked that every listed ID is held or pushed.
      let stack = StackRecord(
        path: change.path, nextID: change.nextID, elements: change.ids.map { elements[$0]! },
        isPresentation: change.isPresentation)
      if let index {
        result[index] = stack
      } else {
        let position = result.firstIndex { $0.path > stack.path } ?? result.endIndex
        result.insert(stack, at: position)
      }
    }
    stacks = result
  }
}
