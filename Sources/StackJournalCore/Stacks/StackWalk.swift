import Foundation
import StackNavigation

/// One pass over a state: visits its stacks and builds their records from the previous ones.
final class StackWalk: StackVisitor {
  /// An element being walked for the stacks nested in it.
  private final class Frame {
    /// Whether a nested stack differs from before.
    var dirty = false
    /// Whether a stack was met inside.
    var hasNested = false
    /// The paths of the presentations met inside, outside every stack met inside.
    var presented: [String] = []
  }

  let previous: [String: StackTracker.Tracked]
  let encoder: SortedJSONEncoder
  var current: [String: StackTracker.Tracked] = [:]
  var idsByCodingPath: [[String]: [StackElementID]] = [:]
  var encodedCount = 0
  /// How many elements (or routes' screens) were walked for the stacks nested in them.
  var walkedCount = 0
  private var frames: [Frame] = []

  init(previous: [String: StackTracker.Tracked], encoder: SortedJSONEncoder) {
    self.previous = previous
    self.encoder = encoder
    current.reserveCapacity(previous.count)
  }

  /// Whether values that write their own JSON are walked through their writers
  /// (``WritableWalk``); false to walk everything through `Encodable`.
  var walksWriters = true

  func run<S: Encodable>(_ state: S) throws {
    try walk(state, at: [], userInfo: [stackVisitorUserInfoKey: StackVisitorBox(self)])
  }

  private func walk<T: Encodable>(
    _ value: T, at codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]
  ) throws {
    if walksWriters {
      try WritableWalk.walk(value, at: codingPath, userInfo: userInfo)
    } else {
      try WritableWalk.walkThroughEncodable(value, at: codingPath, userInfo: userInfo)
    }
  }

  func sortedRecords() throws -> [StackRecord] {
    Self.sortedRecords(current)
  }

  /// The records of tracked stacks, sorted by path: sorted in place, most states holding one
  /// stack or two (`sorted` would copy them into another array).
  static func sortedRecords(_ tracked: [String: StackTracker.Tracked]) -> [StackRecord] {
    var records = tracked.values.map(\.record)
    if records.count > 1 { records.sort { $0.path < $1.path } }
    return records
  }

  func visit<Element: Encodable>(
    _ stack: StackState<Element>,
    codingPath: [any CodingKey],
    userInfo: [CodingUserInfoKey: Any]
  ) throws {
    frames.last?.hasNested = true
    let components = codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    let path = StackPath.render(components, parents: idsByCodingPath)
    let ids = stack.ids
    idsByCodingPath[components] = ids
    guard current[path] == nil else { throw Self.samePath(path) }
    let old = previous[path]
    let oldStack = (old?.value as? TypedStackValue<Element>)?.stack
    let oldIDs = old?.record.ids ?? []
    // Read once: binding `old` in the loop would copy it for every element.
    let oldElements = old?.record.elements ?? []
    let oldHasNested = old?.hasNested ?? []
    let oldPresented = old?.presented ?? StackTracker.PresentedPaths()
    let oldNextID = old?.record.nextID
    let equal = oldStack == nil ? nil : ElementEquality.comparator(for: Element.self)
    var elements: [StoredElement] = []
    elements.reserveCapacity(ids.count)
    var hasNested: Set<StackElementID> = []
    var presented = StackTracker.PresentedPaths()
    var oldIndexByID: [StackElementID: Int]?
    var differs = old == nil || old?.record.nextID != stack.nextID || oldIDs != ids

    // The elements are compared where they are, in both stacks' storage, and read by index:
    // copying each out, or `enumerated()` over a stack whose element type is only known at run
    // time, cost a copy or a tuple's metadata lookup per element.
    try stack.withElementStorage { newElements in
      try (oldStack ?? StackState()).withElementStorage { oldValues in
        for index in ids.indices {
          let id = ids[index]
          // The element at the same position, or found by ID when the stack moved.
          var oldIndex: Int?
          if index < oldIDs.count, oldIDs[index] == id {
            oldIndex = index
          } else if let oldNextID, id < oldNextID {
            // Only an ID below the old next ID can be an element the stack held before.
            if oldIndexByID == nil {
              oldIndexByID = Dictionary(
                oldIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            }
            oldIndex = oldIndexByID?[id]
          }
          // Built only for the elements walked: most elements of a step are equal to before.
          var elementPath: [any CodingKey] {
            codingPath + [
              CodingPathEncoder.KeyedKey(StackElementCodingKey.elements),
              CodingPathEncoder.IndexKey(intValue: index),
              CodingPathEncoder.KeyedKey(StackElementCodingKey.state),
            ]
          }
          let element = newElements.baseAddress! + index
          if let oldIndex, let equal, oldIndex < oldValues.count,
            equal(oldValues.baseAddress! + oldIndex, element)
          {
            let oldElement = oldElements[oldIndex]
            guard oldHasNested.contains(id) else {
              // Equal: it presents what it presented.
              if !oldPresented.isEmpty, let paths = oldPresented[id] {
                carry(paths)
                presented[id] = paths
              }
              elements.append(oldElement)
              continue
            }
            // Equal, but stacks nested in it may have moved their next ID: walk, encode only
            // if so.
            let frame = try walkNested(element.pointee, at: elementPath, userInfo: userInfo)
            if frame.hasNested { hasNested.insert(id) }
            if !frame.presented.isEmpty { presented[id] = frame.presented }
            if frame.dirty {
              let encoded = try encode(element.pointee, id: id).element
              if encoded != oldElement { differs = true }
              elements.append(encoded == oldElement ? oldElement : encoded)
            } else {
              elements.append(oldElement)
            }
            continue
          }
          // Encoded first: walked for nested stacks only when its encoding met one.
          let (encoded, mayHoldStacks) = try encode(element.pointee, id: id)
          if mayHoldStacks {
            let frame = try walkNested(element.pointee, at: elementPath, userInfo: userInfo)
            if frame.hasNested { hasNested.insert(id) }
            if !frame.presented.isEmpty { presented[id] = frame.presented }
          }
          if let oldIndex, oldElements[oldIndex] == encoded {
            elements.append(oldElements[oldIndex])
          } else {
            differs = true
            elements.append(encoded)
          }
        }
      }
    }
    if differs { frames.last?.dirty = true }
    current[path] = StackTracker.Tracked(
      record: StackRecord(path: path, nextID: stack.nextID, elements: elements),
      codingPath: components, value: TypedStackValue(stack: stack), hasNested: hasNested,
      presented: presented)
  }

  /// Adds a route to the stack of its array, whose IDs are the routes' positions: encoded only
  /// when it differs from the route at the same position before, walked (its screen, for the
  /// stacks nested in it) when it differs or had nested stacks.
  func visit<Screen: Encodable>(
    _ route: Route<Screen>,
    codingPath: [any CodingKey],
    userInfo: [CodingUserInfoKey: Any]
  ) throws {
    guard let position = codingPath.last?.intValue else { return }
    frames.last?.hasNested = true
    let components = codingPath.dropLast().map { $0.intValue.map(String.init) ?? $0.stringValue }
    let path = StackPath.render(components, parents: idsByCodingPath)
    let id = StackElementID(generation: position)
    var tracked: StackTracker.Tracked
    if position == 0 {
      guard current[path] == nil else { throw Self.samePath(path) }
      tracked = StackTracker.Tracked(
        record: StackRecord(path: path, nextID: .routesNextID, elements: []),
        codingPath: components,
        value: TypedRoutesValue<Screen>(routes: []), hasNested: [])
    } else {
      guard let existing = current[path], existing.codingPath == components,
        existing.record.elements.count == position
      else {
        throw StorageError(
          code: .invalidData,
          message: "The route at `\(path)[\(position)]` was met without the routes before it.")
      }
      tracked = existing
    }
    // Nested stacks render their paths under this route's position.
    idsByCodingPath[components] = (0...position).map { StackElementID(generation: $0) }
    // This walk's own: the routes met so far are appended to in place.
    let routes = tracked.value as? TypedRoutesValue<Screen> ?? TypedRoutesValue(routes: [])
    routes.routes.append(route)

    let old = previous[path]
    let oldRoutes = (old?.value as? TypedRoutesValue<Screen>)?.routes
    let oldElement = old.flatMap { $0.record.elements.indices.contains(position) ? $0 : nil }?
      .record.elements[position]
    let screenPath =
      codingPath + route.screenCodingPath.map { CodingPathEncoder.KeyedKey($0) as any CodingKey }
    var stored: StoredElement
    var differs = false
    if let oldElement, let oldRoutes, oldRoutes.indices.contains(position),
      let equal = ElementEquality.comparator(for: Route<Screen>.self),
      ElementEquality.equal(equal, oldRoutes[position], route)
    {
      stored = oldElement
      if old?.hasNested.contains(id) != true, let paths = old?.presented[id] {
        // Equal: it presents what it presented.
        carry(paths)
        tracked.presented[id] = paths
      }
      if old?.hasNested.contains(id) == true {
        // Equal, but stacks nested in it may have moved their next ID: walk, encode only if so.
        let frame = try walkNested(route.screen, at: screenPath, userInfo: userInfo)
        if frame.hasNested { tracked.hasNested.insert(id) }
        if !frame.presented.isEmpty { tracked.presented[id] = frame.presented }
        if frame.dirty {
          let encoded = try encode(route, id: id).element
          if encoded != oldElement {
            differs = true
            stored = encoded
          }
        }
      }
    } else {
      let (encoded, mayHoldStacks) = try encode(route, id: id)
      if mayHoldStacks {
        let frame = try walkNested(route.screen, at: screenPath, userInfo: userInfo)
        if frame.hasNested { tracked.hasNested.insert(id) }
        if !frame.presented.isEmpty { tracked.presented[id] = frame.presented }
      }
      if let oldElement, oldElement == encoded {
        stored = oldElement
      } else {
        differs = true
        stored = encoded
      }
    }
    if differs || old == nil || (old?.record.elements.count ?? 0) <= position {
      frames.last?.dirty = true
    }
    tracked.record.elements.append(stored)
    tracked.value = routes
    current[path] = tracked
  }

  /// Adds the record of a presented destination: encoded only when it differs from what was
  /// presented at the same path before, walked (for the stacks and presentations inside it) when
  /// it differs or had some inside.
  func visit<State: Encodable>(
    presented: State,
    codingPath: [any CodingKey],
    userInfo: [CodingUserInfoKey: Any]
  ) throws {
    let components = codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    let path = StackPath.render(components, parents: idsByCodingPath)
    guard current[path] == nil else { throw Self.samePath(path) }
    let old = previous[path].flatMap { $0.record.isPresentation ? $0 : nil }
    let oldElement = old?.record.elements.first
    let oldValue = old?.value as? TypedPresentedValue<State>
    let equal = oldValue == nil ? ElementEquality.comparator(for: State.self) : oldValue?.equal
    var stored: StoredElement
    var hasNested: Set<StackElementID> = []
    var inside: [String] = []
    var differs = false
    /// Left as it was: its record and value are kept as they are.
    var unchanged = false
    if let oldElement, let oldValue = oldValue?.value, let equal,
      ElementEquality.equal(equal, oldValue, presented)
    {
      stored = oldElement
      if old?.hasNested.contains(0) == true {
        // Equal, but stacks inside it may have moved their next ID: walk, encode only if so.
        let frame = try walkNested(presented, at: codingPath, userInfo: userInfo)
        if frame.hasNested { hasNested.insert(0) }
        inside = frame.presented
        if frame.dirty {
          let encoded = try encode(presented, id: 0).element
          if encoded != oldElement {
            differs = true
            stored = encoded
          }
        }
      } else {
        // Equal: it presents what it presented.
        unchanged = true
        if let paths = old?.presented[0] {
          carry(paths)
          inside = paths
        }
      }
    } else {
      let (encoded, mayHoldStacks) = try encode(presented, id: 0)
      if mayHoldStacks {
        let frame = try walkNested(presented, at: codingPath, userInfo: userInfo)
        if frame.hasNested { hasNested.insert(0) }
        inside = frame.presented
      }
      if let oldElement, oldElement == encoded {
        stored = oldElement
      } else {
        differs = true
        stored = encoded
      }
    }
    if differs || old == nil { frames.last?.dirty = true }
    // The element that holds it is walked again only when a stack is inside; otherwise its
    // records are carried over while it stays equal.
    if hasNested.isEmpty {
      frames.last?.presented.append(path)
      frames.last?.presented.append(contentsOf: inside)
    } else {
      frames.last?.hasNested = true
    }
    if unchanged, let old {
      current[path] = old
      return
    }
    var tracked = StackTracker.Tracked(
      record: .presented(at: path, stored), codingPath: components,
      value: TypedPresentedValue(value: presented, equal: equal), hasNested: hasNested)
    if !inside.isEmpty { tracked.presented[0] = inside }
    current[path] = tracked
  }

  /// The error of a second stack or presentation at a path one was already met at.
  private static func samePath(_ path: String) -> StorageError {
    StorageError(
      code: .duplicateStackPath,
      message: "Two stacks or presentations of the state have the same path `\(path)`. Rename "
        + "one of the properties or dictionary keys that lead to them so their paths differ."
    )
  }

  /// Carries over the records of presentations at `paths` from the previous walk: they are
  /// inside an element equal to its previous value.
  private func carry(_ paths: [String]) {
    for path in paths {
      if let record = previous[path] { current[path] = record }
    }
  }

  private func walkNested<Element: Encodable>(
    _ element: Element,
    at codingPath: [any CodingKey],
    userInfo: [CodingUserInfoKey: Any]
  ) throws -> Frame {
    walkedCount += 1
    let frame = Frame()
    frames.append(frame)
    defer { frames.removeLast() }
    try walk(element, at: codingPath, userInfo: userInfo)
    return frame
  }

  /// The element as stored, and whether stacks may be nested in it (see
  /// ``SortedJSONEncoder/encodeElement(_:)``): when not, walking it would find none.
  private func encode<Element: Encodable>(_ element: Element, id: StackElementID) throws
    -> (element: StoredElement, mayHoldStacks: Bool)
  {
    encodedCount += 1
    let (json, caseName, mayHoldStacks) = try encoder.encodeElement(element)
    return (StoredElement(id: id, caseName: caseName, state: json), mayHoldStacks)
  }
}

/// The keys `StackState` encodes an element under, as the coding path records them.
private enum StackElementCodingKey: String, CodingKey {
  case elements
  case state
}
