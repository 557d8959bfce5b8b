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
