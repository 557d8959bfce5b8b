/// A list of elements with stable, generational identities: the state of a navigation stack.
///
/// Every element gets a ``StackElementID`` when it enters the stack. The generator of the next ID
/// is part of the value: copying, encoding, decoding and replaying a stack all continue the same
/// sequence of IDs, and no ID is ever handed out twice by one stack.
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
  /// appends it under that ID, and the stack's next ID moves above it — unless the stack already
  /// handed that ID out: an ID is never handed out twice, so that is reported as an issue and
  /// changes nothing.
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
  /// ```
  public subscript<Case>(
    id id: StackElementID,
    case path: CaseKeyPath<Element, Case>
  ) -> Case? where Element: CasePathable {
    get {
      self[id: id].flatMap { $0[case: path] }
    }
    set {
      guard let newValue, self[id: id] != nil else { return }
      self[id: id] = path(newValue)
    }
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

  /// Appends an element under an ID the stack has not handed out yet; reports any other ID.
  mutating func appendIfNew(_ element: Element, id: StackElementID) {
    guard id >= nextID, id <= StackElementID.largest else {
      reportFailure(
        """
        An element was set under ID \(id), which this stack cannot hand out (its next ID is \
        \(nextID)): an ID is never handed out twice. Append the element instead.
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
  /// Two stacks are equal when they hold equal elements under the same IDs and will hand out
  /// the same next ID.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storedIDs == rhs.storedIDs && lhs.nextID == rhs.nextID
      && lhs.storedElements == rhs.storedElements
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storedIDs)
    hasher.combine(nextID)
    hasher.combine(storedElements)
  }
}
