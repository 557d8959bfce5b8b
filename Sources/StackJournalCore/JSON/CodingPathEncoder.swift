/// An `Encoder` that writes nothing and keeps exact coding paths, to run the walk that finds the
/// stacks of a state (`StackWalk`).
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

  /// The key of a keyed container as the coding path records it.
  ///
  /// A collector names a key by its `intValue` when it has one, and a dictionary keyed by
  /// `"42"` (or by `42`) hands out keys that do, so such a key would read as the array index
  /// 42. Here a key made of digits only is recorded as the JSON string literal `"42"`, with no
  /// `intValue`; a key that starts with a quote is quoted too, so the two never meet.
  /// ``StackPath/render(_:parents:)`` turns the first into `["42"]` and the second back into
  /// the key. Every other key is recorded as it is.
  struct KeyedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ key: some CodingKey) {
      let name = key.stringValue
      stringValue =
        StackPath.isDigits(name) || name.hasPrefix("\"") ? JSONText.literal(name) : name
    }

    init?(stringValue: String) {
      self.stringValue = stringValue
    }

    init?(intValue: Int) {
      return nil
    }
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

    // A value of a primitive type holds no stack: it is passed over without building its coding
    // path or an encoder for it, which the generic `encode` would.
    mutating func encode(_ value: Bool, forKey key: Key) throws {}
    mutating func encode(_ value: String, forKey key: Key) throws {}
    mutating func encode(_ value: Double, forKey key: Key) throws {}
    mutating func encode(_ value: Float, forKey key: Key) throws {}
    mutating func encode(_ value: Int, forKey key: Key) throws {}
    mutating func encode(_ value: Int8, forKey key: Key) throws {}
    mutating func encode(_ value: Int16, forKey key: Key) throws {}
    mutating func encode(_ value: Int32, forKey key: Key) throws {}
    mutating func encode(_ value: Int64, forKey key: Key) throws {}
    mutating func encode(_ value: UInt, forKey key: Key) throws {}
    mutating func encode(_ value: UInt8, forKey key: Key) throws {}
    mutating func encode(_ value: UInt16, forKey key: Key) throws {}
    mutating func encode(_ value: UInt32, forKey key: Key) throws {}
    mutating func encode(_ value: UInt64, forKey key: Key) throws {}

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try encoder.encode(value, at: codingPath + [KeyedKey(key)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type,
      forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(
        KeyedContainer<NestedKey>(encoder: encoder, codingPath: codingPath + [KeyedKey(key)]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      UnkeyedContainer(encoder: encoder, codingPath: codingPath + [KeyedKey(key)])
    }

    mutating func superEncoder() -> any Encoder {
      CodingPathEncoder(
        codingPath: codingPath + [IndexKey(intValue: 0)], userInfo: encoder.userInfo)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
      CodingPathEncoder(codingPath: codingPath + [KeyedKey(key)], userInfo: encoder.userInfo)
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

    // Primitive values hold no stack; see `KeyedContainer`.
    mutating func encode(_ value: Bool) throws { count += 1 }
    mutating func encode(_ value: String) throws { count += 1 }
    mutating func encode(_ value: Double) throws { count += 1 }
    mutating func encode(_ value: Float) throws { count += 1 }
    mutating func encode(_ value: Int) throws { count += 1 }
    mutating func encode(_ value: Int8) throws { count += 1 }
    mutating func encode(_ value: Int16) throws { count += 1 }
    mutating func encode(_ value: Int32) throws { count += 1 }
    mutating func encode(_ value: Int64) throws { count += 1 }
    mutating func encode(_ value: UInt) throws { count += 1 }
    mutating func encode(_ value: UInt8) throws { count += 1 }
    mutating func encode(_ value: UInt16) throws { count += 1 }
    mutating func encode(_ value: UInt32) throws { count += 1 }
    mutating func encode(_ value: UInt64) throws { count += 1 }

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
