/// A list of elements with stable, generational identities: the state of a navigation stack.
///
/// Every element gets a ``StackElementID`` when it enters the stack. The generator of the next ID
/// is part of the value: copying, encoding, decoding and replaying a stack all continue the same
/// sequence of IDs, and the generator never hands out an ID twice.
///
/// Two stacks are equal when they hold equal elements under the same IDs, whatever their next
/// IDs, as in the Composable Architecture: a test's `$0.path = StackState()` matches a stack
/// that pushed and popped elements. ``nextID`` is compared on its own where it matters.
///
/// ```swift
/// var path = StackState<Path.State>([.counter(.init(count: 42))])  // #0
/// path.append(.counter(.init(count: 1729)))                          // #1
/// path.pop(from: 1)
/// path.append(.counter(.init(count: -999)))                          // #2, never #1 again
/// ```
public struct StackState<Element> {
  var storedIDs: [StackElementID]
  var storedElements: [Element]

  /// The ID the next element appended to this stack receives.
  public internal(set) var nextID: StackElementID

  /// The IDs `forEach` saw when it last ran for this stack: the elements whose effects it may
  /// have started. When another reducer removes elements, `forEach` cancels their effects the
  /// next time it runs by comparing these with ``ids``. Bookkeeping only: not part of `==`,
  /// hashing, encoding or dumps.
  var mountedIDs: [StackElementID] = []

  /// Creates an empty stack whose first element will receive ID `#0`.
  public init() {
    self.storedIDs = []
    self.storedElements = []
    self.nextID = 0
  }

  /// Creates a stack of the given elements, with IDs `#0`, `#1`, … in order.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    self.append(contentsOf: elements)
  }

  init(ids: [StackElementID], elements: [Element], nextID: StackElementID) {
    self.storedIDs = ids
    self.storedElements = elements
    self.nextID = nextID
  }

  /// The IDs of the elements, bottom of the stack first.
  public var ids: [StackElementID] { storedIDs }

  /// The element with the given ID, or `nil` when the stack holds no such element.
  ///
  /// Setting `nil` removes the element. Setting a value for an ID the stack does not hold
  /// appends it under that ID, as an explicit push does: an ID popped earlier is accepted, and an
  /// ID at or above ``nextID`` moves the next ID above it. IDs above ``StackElementID/largest``
  /// are reported as an issue and change nothing.
  public subscript(id id: StackElementID) -> Element? {
    get {
      storedIDs.firstIndex(of: id).map { storedElements[$0] }
    }
    set {
      if let index = storedIDs.firstIndex(of: id) {
        if let newValue {
          storedElements[index] = newValue
        } else {
          storedIDs.remove(at: index)
          storedElements.remove(at: index)
        }
      } else if let newValue {
        appendIfNew(newValue, id: id)
      }
    }
    _modify {
      guard let index = storedIDs.firstIndex(of: id) else {
        var element: Element? = nil
        defer { if let element { appendIfNew(element, id: id) } }
        yield &element
        return
      }
      // The element moves out while it is modified, so it is changed in place, not copied.
      var element: Element? = storedElements.remove(at: index)
      storedIDs.remove(at: index)
      defer {
        if let element {
          storedIDs.insert(id, at: index)
          storedElements.insert(element, at: index)
        }
      }
      yield &element
    }
  }

  /// The element with the given ID, when it is in the given case of an enum element.
  ///
  /// ```swift
  /// $0.path[id: 0, case: \.counter]?.count = 4
  /// $0.path[id: 0, case: \.counter] = nil  // removes the element
  /// ```
  ///
  /// Modifying or setting an element through a case it is not in — or an ID the stack does not
  /// hold — is reported as an issue ("Can't modify unrelated case") and changes nothing.
  public subscript<Case>(
    id id: StackElementID,
    case path: CaseKeyPath<Element, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? where Element: CasePathable {
    get {
      self[id: id].flatMap { $0[case: path] }
    }
    _modify {
      yield &self[
        id: id, anyCase: AnyCasePath(path),
        fileID: fileID, filePath: filePath, line: line, column: column]
    }
  }

  /// The element with the given ID in the case a case path names; what the case key path and
  /// the case path subscripts both do.
  subscript<Case>(
    id id: StackElementID,
    anyCase path: AnyCasePath<Element, Case>,
    fileID fileID: StaticString,
    filePath filePath: StaticString,
    line line: UInt,
    column column: UInt
  ) -> Case? {
    get {
      self[id: id].flatMap { path.extract(from: $0) }
    }
    _modify {
      let element = self[id: id]
      var value = element.flatMap { path.extract(from: $0) }
      let isInCase = value != nil
      yield &value
      guard isInCase else {
        return reportUnrelatedCase(
          of: element, fileID: fileID, filePath: filePath, line: line, column: column)
      }
      self[id: id] = value.map { path.embed($0) }
    }
  }

  /// The IDs whose elements may have work running: those `forEach` saw when it last ran, then
  /// those in the stack now that it did not see.
  var idsWithRunningWork: [StackElementID] {
    guard mountedIDs != storedIDs else { return mountedIDs }
    let mounted = Set(mountedIDs)
    return mountedIDs + storedIDs.filter { !mounted.contains($0) }
  }

  /// Appends an element; it receives the stack's next ID.
  public mutating func append(_ element: Element) {
    insert(element, id: nextID, at: storedIDs.endIndex)
  }

  /// Removes the element with the given ID and every element above it.
  ///
  /// Returns `false`, changing nothing, when the stack holds no element with that ID.
  @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let index = storedIDs.firstIndex(of: id) else { return false }
    truncate(to: index)
    return true
  }

  /// Removes every element above the element with the given ID, keeping that element.
  ///
  /// Returns `false`, changing nothing, when the stack holds no element with that ID.
  @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let index = storedIDs.firstIndex(of: id) else { return false }
    truncate(to: index + 1)
    return true
  }

  /// Removes and returns the top element, or returns `nil` when the stack is empty.
  @discardableResult
  public mutating func popLast() -> Element? {
    guard !storedIDs.isEmpty else { return nil }
    storedIDs.removeLast()
    return storedElements.removeLast()
  }

  /// Appends an element under an ID the stack does not hold, as an explicit push does.
  ///
  /// An ID below ``nextID`` (one popped earlier) leaves the next ID as it is; an ID at or above
  /// it moves the next ID above it. An ID above ``StackElementID/largest`` is reported.
  mutating func appendIfNew(_ element: Element, id: StackElementID) {
    guard id <= StackElementID.largest else {
      reportFailure(
        """
        An element was set under ID \(id), above the largest ID a stack holds \
        (\(StackElementID.largest)). Append the element instead.
        """)
      return
    }
    insert(element, id: id, at: storedIDs.endIndex)
  }

  mutating func insert(_ element: Element, id: StackElementID, at index: Int) {
    storedIDs.insert(id, at: index)
    storedElements.insert(element, at: index)
    if id >= nextID { nextID = id.next }
  }

  mutating func truncate(to count: Int) {
    storedIDs.removeSubrange(count...)
    storedElements.removeSubrange(count...)
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Equatable where Element: Equatable {
  /// Two stacks are equal when they hold equal elements under the same IDs, in the same order.
  ///
  /// The next ID does not take part, as in the Composable Architecture; compare ``nextID``
  /// explicitly where it matters (a restored or decoded stack).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storedIDs == rhs.storedIDs && lhs.storedElements == rhs.storedElements
  }
}

extension StackState: Hashable where Element: Hashable {
  /// Hashes the IDs and the elements, like `==`; not the next ID.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storedIDs)
    hasher.combine(storedElements)
  }
}

/// Reports a modification through a case subscript (`path[id: 0, case: \.text]`,
/// `$destination[case: \.text]`) of a value in another case, or of none: TCA's "Can't modify
/// unrelated case \"counter\"".
func reportUnrelatedCase(
  of value: Any?, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
  let name = value.flatMap(enumCaseName(of:)).map { " \($0.debugDescription)" } ?? ""
  reportFailure(
    "Can't modify unrelated case\(name)",
    fileID: fileID, filePath: filePath, line: line, column: column)
}

extension StackState: RandomAccessCollection, RangeReplaceableCollection {
  public var startIndex: Int { storedElements.startIndex }
  public var endIndex: Int { storedElements.endIndex }

  // Index arithmetic written out as `Array` writes it. The collection protocols' defaults check
  // every index against a `Range` whose metadata they look up on each call when the element
  // type is not known where they run (a journal walking any app's stacks), once per element.
  public var indices: Range<Int> { storedElements.indices }
  public func index(after index: Int) -> Int { index + 1 }
  public func index(before index: Int) -> Int { index - 1 }
  public func index(_ index: Int, offsetBy distance: Int) -> Int { index + distance }
  public func distance(from start: Int, to end: Int) -> Int { end - start }

  /// The element at a position, bottom of the stack first.
  public subscript(position: Int) -> Element {
    get { storedElements[position] }
    _modify { yield &storedElements[position] }
  }

  /// Replaces a range of elements; every new element receives a fresh ID, in order.
  public mutating func replaceSubrange<C: Collection<Element>>(
    _ subrange: Range<Int>,
    with newElements: C
  ) {
    var newIDs: [StackElementID] = []
    newIDs.reserveCapacity(newElements.count)
    for _ in newElements {
      newIDs.append(nextID)
      nextID = nextID.next
    }
    storedIDs.replaceSubrange(subrange, with: newIDs)
    storedElements.replaceSubrange(subrange, with: newElements)
  }

  /// Removes every element; the stack keeps its next ID, so no ID is handed out again.
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    storedIDs.removeAll(keepingCapacity: keepCapacity)
    storedElements.removeAll(keepingCapacity: keepCapacity)
  }

  /// The elements that satisfy the predicate, with their IDs and this stack's next ID.
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    var result = self
    try result.removeAll { try !isIncluded($0) }
    return result
  }

  /// A sequence's elements followed by a stack's: the stack's elements keep their IDs, the
  /// others receive the stack's next IDs.
  public static func + <Other: Sequence<Element>>(lhs: Other, rhs: Self) -> Self {
    var result = rhs
    result.insert(contentsOf: Array(lhs), at: result.startIndex)
    return result
  }

  /// Removes the elements that satisfy the predicate; the others keep their IDs.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    var keptIDs: [StackElementID] = []
    var keptElements: [Element] = []
    for (id, element) in zip(storedIDs, storedElements) where try !shouldBeRemoved(element) {
      keptIDs.append(id)
      keptElements.append(element)
    }
    storedIDs = keptIDs
    storedElements = keptElements
  }
}

extension StackState: ExpressibleByArrayLiteral {
  /// Creates a stack of the given elements, with IDs `#0`, `#1`, … in order.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState {
  /// Calls `body` with the elements' storage, bottom of the stack first, so that the journal's
  /// tracker can compare elements where they are instead of copying each one out (a copy of an
  /// element retains every reference it holds, and releases them again after).
  package func withElementStorage<Result>(
    _ body: (UnsafeBufferPointer<Element>) throws -> Result
  ) rethrows -> Result {
    try storedElements.withUnsafeBufferPointer(body)
  }
}

/// The coding keys of a ``StackState``: `{"elements": [{"id": 0, "state": …}], "nextID": 1}`.
enum StackStateCodingKeys: String, CodingKey {
  case elements
  case nextID
}

enum StackElementCodingKeys: String, CodingKey {
  case id
  case state
}

extension StackState: Encodable where Element: Encodable {
  /// Encodes the elements with their IDs and the next ID, so a decoded stack never reuses an ID.
  ///
  /// The shape is `{"elements": [{"id": 0, "state": …}, …], "nextID": 1}`. When the encoder's
  /// `userInfo` carries a ``StackVisitor`` (under ``stackVisitorUserInfoKey``), the stack hands
  /// itself to the visitor instead and encodes nothing: that is how the journal finds the
  /// stacks of a state.
  public func encode(to encoder: any Encoder) throws {
    if let visitor = stackVisitor(in: encoder.userInfo) {
      try visitor.visit(self, codingPath: encoder.codingPath, userInfo: encoder.userInfo)
      return
    }
    (encoder.userInfo[stackEncounterUserInfoKey] as? StackEncounter)?.met = true
    var container = encoder.container(keyedBy: StackStateCodingKeys.self)
    var elements = container.nestedUnkeyedContainer(forKey: .elements)
    for (id, element) in zip(storedIDs, storedElements) {
      var entry = elements.nestedContainer(keyedBy: StackElementCodingKeys.self)
      try entry.encode(id, forKey: .id)
      try entry.encode(element, forKey: .state)
    }
    try container.encode(nextID, forKey: .nextID)
  }
}

extension StackState: Decodable where Element: Decodable {
  /// Decodes a stack written by ``encode(to:)``.
  ///
  /// Throws `DecodingError.dataCorrupted` when an ID appears twice or when the next ID is not
  /// above every ID in the stack: such a stack would hand out an ID a second time.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: StackStateCodingKeys.self)
    var elements = try container.nestedUnkeyedContainer(forKey: .elements)
    var ids: [StackElementID] = []
    var values: [Element] = []
    var seen: Set<StackElementID> = []
    while !elements.isAtEnd {
      let entry = try elements.nestedContainer(keyedBy: StackElementCodingKeys.self)
      let id = try entry.decode(StackElementID.self, forKey: .id)
      guard seen.insert(id).inserted else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: entry.codingPath + [StackElementCodingKeys.id],
            debugDescription: "Stack element ID \(id) appears more than once in the stack."
          )
        )
      }
      ids.append(id)
      values.append(try entry.decode(Element.self, forKey: .state))
    }
    let nextID = try container.decode(StackElementID.self, forKey: .nextID)
    if let highest = ids.max(), nextID <= highest {
      throw DecodingError.dataCorruptedError(
        forKey: .nextID,
        in: container,
        debugDescription:
          "The stack's next ID \(nextID) is not above its highest ID \(highest): "
          + "it would hand out an ID a second time."
      )
    }
    self.init(ids: ids, elements: values, nextID: nextID)
  }
}

extension StackState: CustomDumpReflectable {
  /// Dumps as `#id: element` pairs, bottom of the stack first.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: zip(storedIDs, storedElements).map { id, element in
        (label: String?.none, value: (key: AnyHashable(id), value: element as Any))
      },
      displayStyle: .dictionary
    )
  }
}

extension StackState: CustomStringConvertible {
  public var description: String {
    let pairs = zip(storedIDs, storedElements).map { "\($0): \($1)" }
    return "[\(pairs.joined(separator: ", "))] next \(nextID)"
  }
}
