/// A value that writes its own JSON for a journal, without going through `Encodable`'s
/// containers: the same bytes its `Encodable` conformance writes through `JSONEncoder` with
/// sorted keys.
///
/// The `@Reducer` macro conforms the enums it sees (through `@_JournalCaseNamed`) and
/// `@ObservableState` the structs it is attached to; ``StackAction`` and ``RouterAction`` conform
/// by hand. Not meant to be conformed to by hand elsewhere.
///
/// The code the macros generate writes what a synthesized `Encodable` conformance writes. A
/// conformance written by hand elsewhere (an `encode(to:)` in an extension the macro cannot see)
/// may write otherwise: so the journal's encoder checks each type and case the first time it
/// meets it, writing that value both ways, and writes a case that differed through `Encodable`
/// from then on.
public protocol _JournalJSONWritable {
  /// Writes `self` as JSON to `json`.
  func _writeJournalJSON(to json: inout _JournalJSON) throws
}

/// Where a ``_JournalJSONWritable`` value writes: implemented by the journal's JSON encoder.
public protocol _JournalJSONOutput: AnyObject {
  /// Opens `{"name":{`, the object of `value`, which holds case `index` of its enum type;
  /// throws when that case was found to write otherwise than the type's `Encodable`.
  func _openCase<T>(_ value: T, index: Int, name: StaticString) throws
  /// Opens `{`, the object of the struct `value`; throws as ``_openCase(_:index:name:)``.
  func _openObject<T>(_ value: T) throws
  /// Closes an object opened by ``_openCase(_:index:name:)`` (`}}`) or ``_openObject(_:)``
  /// (`}`).
  func _close(case: Bool)
  /// Starts a member: `,"key":` or `"key":`. The key is ASCII without quotes or backslashes.
  func _key(_ key: StaticString)
  func _string(_ value: String) throws
  func _bool(_ value: Bool)
  func _signed(_ value: Int64)
  func _unsigned(_ value: UInt64)
  func _double(_ value: Double) throws
  func _float(_ value: Float) throws
  /// Writes punctuation: `[`, `,` or `]`.
  func _raw(_ text: StaticString)
  /// Writes a value as its `Encodable` conformance does, under the member `key` just started.
  func _encodable<T: Encodable>(_ value: T, key: StaticString) throws
}

/// The JSON being written by a ``_JournalJSONWritable`` value. The members' keys must be written
/// in ascending byte order, as `JSONEncoder` sorts them. Every member throws, whatever its type,
/// so that generated code can `try` each without knowing which overload it calls.
public struct _JournalJSON {
  @usableFromInline let output: any _JournalJSONOutput

  package init(output: any _JournalJSONOutput) {
    self.output = output
  }

  /// Opens the object of `value`, which holds case `index` of its enum type, named `name`:
  /// `{"name":{`.
  @inlinable public mutating func _case<T>(_ value: T, _ index: Int, _ name: StaticString) throws
  {
    try output._openCase(value, index: index, name: name)
  }

  /// Closes a case's object: `}}`.
  @inlinable public mutating func _endCase() {
    output._close(case: true)
  }

  /// Opens the object of the struct `value`: `{`.
  @inlinable public mutating func _object<T>(_ value: T) throws {
    try output._openObject(value)
  }

  /// Closes a struct's object: `}`.
  @inlinable public mutating func _endObject() {
    output._close(case: false)
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: String) throws {
    output._key(key)
    try output._string(value)
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: Bool) throws {
    output._key(key)
    output._bool(value)
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: Int) throws {
    output._key(key)
    output._signed(Int64(value))
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: Double) throws {
    output._key(key)
    try output._double(value)
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: Float) throws {
    output._key(key)
    try output._float(value)
  }

  @inlinable public mutating func _member<T: FixedWidthInteger & Encodable>(
    _ key: StaticString, _ value: T
  ) throws {
    output._key(key)
    if T.bitWidth > 64 {
      // `Int128` and wider: as their `Encodable` writes them.
      try output._encodable(value, key: key)
    } else if T.isSigned {
      output._signed(Int64(truncatingIfNeeded: value))
    } else {
      output._unsigned(UInt64(truncatingIfNeeded: value))
    }
  }

  /// Any other value, through its `Encodable` conformance (the output writes a value that is
  /// ``_JournalJSONWritable`` at run time by itself).
  @inlinable public mutating func _member<T: Encodable>(_ key: StaticString, _ value: T) throws {
    output._key(key)
    try output._encodable(value, key: key)
  }

  @inlinable public mutating func _member<T: _JournalJSONWritable & Encodable>(
    _ key: StaticString, _ value: T
  ) throws {
    output._key(key)
    try value._writeJournalJSON(to: &self)
  }

  /// A value whose type is not known to be `Encodable` here: written through its conformance
  /// when it has one at run time; otherwise nothing can be written, as `Encodable` could not.
  public mutating func _member<T>(_ key: StaticString, _ value: T) throws {
    guard let encodable = value as? any Encodable else {
      throw _JournalJSONNotEncodable()
    }
    output._key(key)
    try output._encodable(encodable, key: key)
  }

  // Arrays of the values above, and of writable values, as `Array`'s `Encodable` writes them.

  @inlinable public mutating func _member(_ key: StaticString, _ value: [String]) throws {
    try _array(key, value) { try $0.output._string($1) }
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: [Int]) throws {
    try _array(key, value) { $0.output._signed(Int64($1)) }
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: [Double]) throws {
    try _array(key, value) { try $0.output._double($1) }
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: [Bool]) throws {
    try _array(key, value) { $0.output._bool($1) }
  }

  @inlinable public mutating func _member<T: _JournalJSONWritable & Encodable>(
    _ key: StaticString, _ value: [T]
  ) throws {
    try _array(key, value) { try $1._writeJournalJSON(to: &$0) }
  }

  /// An array's member: `"key":[…]`, each element written by `element`.
  @inlinable mutating func _array<Element>(
    _ key: StaticString, _ values: [Element],
    _ element: (inout _JournalJSON, Element) throws -> Void
  ) rethrows {
    output._key(key)
    output._raw("[")
    for index in values.indices {
      if index > 0 { output._raw(",") }
      try element(&self, values[index])
    }
    output._raw("]")
  }

  // An optional's member is left out when it is nil, as a synthesized `encodeIfPresent` does:
  // the overloads below are chosen where the value's type is an optional as written, where
  // synthesis chooses `encodeIfPresent`.

  public mutating func _member<T>(_ key: StaticString, _ value: T?) throws {
    guard let value else { return }
    try _member(key, value)
  }

  @inlinable public mutating func _member<T: Encodable>(_ key: StaticString, _ value: T?) throws {
    guard let value else { return }
    try _member(key, value)
  }

  @inlinable public mutating func _member<T: _JournalJSONWritable & Encodable>(
    _ key: StaticString, _ value: T?
  ) throws {
    guard let value else { return }
    try _member(key, value)
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: String?) throws {
    guard let value else { return }
    try _member(key, value)
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: Int?) throws {
    guard let value else { return }
    try _member(key, value)
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: Bool?) throws {
    guard let value else { return }
    try _member(key, value)
  }

  @inlinable public mutating func _member(_ key: StaticString, _ value: Double?) throws {
    guard let value else { return }
    try _member(key, value)
  }
}

/// Thrown when a value that is not `Encodable` was to be written.
public struct _JournalJSONNotEncodable: Error {
  package init() {}
}

// The package's own actions write themselves as their `encode(to:)` does, as the macros make a
// user's enums do: a journal records one of them with nearly every action of a stack.

extension StackAction: _JournalJSONWritable where State: Encodable, Action: Encodable {
  public func _writeJournalJSON(to json: inout _JournalJSON) throws {
    switch self {
    case let .element(id, action):
      try json._case(self, 0, "element")
      try json._member("action", action)
      try json._member("id", id.generation)
    case let .popFrom(id):
      try json._case(self, 1, "popFrom")
      try json._member("id", id.generation)
    case let .push(id, state):
      try json._case(self, 2, "push")
      try json._member("id", id.generation)
      try json._member("state", state)
    }
    json._endCase()
  }
}

extension RouterAction: _JournalJSONWritable
where ID: Encodable, Screen: Encodable, ScreenAction: Encodable {
  public func _writeJournalJSON(to json: inout _JournalJSON) throws {
    switch self {
    case let .routeAction(id, action):
      try json._case(self, 0, "routeAction")
      try json._member("_0", id)
      try json._member("action", action)
    case let .updateRoutes(routes):
      try json._case(self, 1, "updateRoutes")
      try json._member("_0", routes)
    }
    json._endCase()
  }
}
