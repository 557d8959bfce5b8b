/// An `Encoder` that writes nothing and keeps exact coding paths, to run a
/// ``StackEncodingCollector`` over a state.
///
/// Foundation's `JSONEncoder` reports incomplete coding paths to values encoded inside nested
/// containers (the `elements` key and index inside a stack, the case key of an enum), so
/// stacks nested in elements could not be told apart. This encoder walks the same
/// `encode(to:)` calls and reports every key.
struct CodingPathEncoder: Encoder {
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any]

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    UnkeyedContainer(encoder: self, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(encoder: self)
  }

  func encode<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws {
    try value.encode(to: CodingPathEncoder(codingPath: codingPath, userInfo: userInfo))
  }

  struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(intValue: Int) {
      self.intValue = intValue
    }

    init?(stringValue: String) {
      return nil
    }
  }

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: CodingPathEncoder
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try encoder.encode(value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type,
      forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(
        KeyedContainer<NestedKey>(encoder: encoder, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      UnkeyedContainer(encoder: encoder, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
      CodingPathEncoder(
        codingPath: codingPath + [IndexKey(intValue: 0)], userInfo: encoder.userInfo)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
      CodingPathEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfo)
    }
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: CodingPathEncoder
    let codingPath: [any CodingKey]
    var count = 0

    init(encoder: CodingPathEncoder, codingPath: [any CodingKey]) {
      self.encoder = encoder
      self.codingPath = codingPath
    }

    private mutating func nextPath() -> [any CodingKey] {
      defer { count += 1 }
      return codingPath + [IndexKey(intValue: count)]
    }

    mutating func encodeNil() throws { count += 1 }

    mutating func encode<T: Encodable>(_ value: T) throws {
      try encoder.encode(value, at: nextPath())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, codingPath: nextPath()))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      UnkeyedContainer(encoder: encoder, codingPath: nextPath())
    }

    mutating func superEncoder() -> any Encoder {
      CodingPathEncoder(codingPath: nextPath(), userInfo: encoder.userInfo)
    }
  }

  struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: CodingPathEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {}
    mutating func encode(_ value: Bool) throws {}
    mutating func encode(_ value: String) throws {}
    mutating func encode(_ value: Double) throws {}
    mutating func encode(_ value: Float) throws {}
    mutating func encode(_ value: Int) throws {}
    mutating func encode(_ value: Int8) throws {}
    mutating func encode(_ value: Int16) throws {}
    mutating func encode(_ value: Int32) throws {}
    mutating func encode(_ value: Int64) throws {}
    mutating func encode(_ value: UInt) throws {}
    mutating func encode(_ value: UInt8) throws {}
    mutating func encode(_ value: UInt16) throws {}
    mutating func encode(_ value: UInt32) throws {}
    mutating func encode(_ value: UInt64) throws {}

    mutating func encode<T: Encodable>(_ value: T) throws {
      try encoder.encode(value, at: codingPath)
    }
  }
}
