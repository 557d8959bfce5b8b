extension StackState: RandomAccessCollection, RangeReplaceableCollection {
  public var startIndex: Int { storedElements.startIndex }
  public var endIndex: Int { storedElements.endIndex }

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
}

extension StackState: ExpressibleByArrayLiteral {
  /// Creates a stack of the given elements, with IDs `#0`, `#1`, … in order.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}
