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
    if let visitor = encoder.userInfo[stackVisitorUserInfoKey] as? any StackVisitor {
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
