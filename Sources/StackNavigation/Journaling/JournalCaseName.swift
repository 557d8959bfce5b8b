/// An enum that names its own case for a journal's action type, without reflection.
///
/// The `@Reducer` macro conforms the action and state enums it sees (a feature's nested `Action`
/// and `State` enums, a `@Reducer enum`'s generated ones) through `@_JournalCaseNamed`;
/// ``StackAction`` and ``RouterAction`` conform by hand. Not meant to be conformed to by hand
/// elsewhere: an enum without it is named by reflection, with the same result.
public protocol _JournalCaseNamed {
  /// Appends the name of the case `self` holds, then those of the enums in its associated
  /// values, to `name`.
  func _appendJournalCaseName(to name: inout _JournalCaseName)
}

/// Generates ``_JournalCaseNamed`` for an enum: a `switch` that names each case and hands its
/// associated values on; and ``_JournalJSONWritable``: a `switch` that writes each case as a
/// synthesized `Encodable` conformance does. Added by `@Reducer`; not meant to be written by
/// hand.
@attached(
  extension, conformances: _JournalCaseNamed, _JournalJSONWritable,
  names: named(_appendJournalCaseName), named(_writeJournalJSON))
public macro _JournalCaseNamed() =
  #externalMacro(module: "StackNavigationMacros", type: "JournalCaseNamedMacro")

/// The journal type of an action being built, one case name at a time: `path.element.counter.
/// incrementButtonTapped`.
///
/// The name of each enum case, descending into a case's associated value when it is itself an
/// enum (for several associated values, or a tuple, into the last one that is an enum). An enum
/// that conforms to ``_JournalCaseNamed`` names its case itself; any other is read from its
/// type's metadata (``EnumCaseReading``), each case checked once against its mirror, and where
/// that does not serve, through its mirror, except that a case without associated values is
/// named once per type and case (``CaseNames``), then looked up. A conforming enum that supplies
/// its own mirror or description is read as any other, so that the name stays what reflection
/// gives.
public struct _JournalCaseName {
  /// The names so far, joined with dots: written as they come, where an array of them and its
  /// join cost an allocation per few names.
  private var text = ""
  private var count = 0

  private mutating func append(_ name: String) {
    if count > 0 { text.append(".") }
    text.append(name)
    count += 1
  }

  /// The journal type of `action`: empty when it is not an enum.
  package static func of(_ action: Any) -> String {
    var name = _JournalCaseName()
    name.descend(into: ActionLevel(action))
    return name.text
  }

  /// The journal type of `action`, as ``of(_:)`` gives it; an action whose type names its own
  /// cases is named without being boxed or cast (``JournalCaseNaming/Kind/enum(namer:)``).
  package static func of<Action>(typed action: Action) -> String {
    var name = _JournalCaseName()
    name.descend(intoValue: action)
    return name.text
  }

  /// Appends a case whose associated values are `value` and others that can never be enums
  /// (a stack's ID): descends into `value` when it is an enum. As
  /// ``_case(_:lastEnumOf:)`` with those values, without boxing `value` when its type names its
  /// own cases.
  mutating func _case<Value>(_ name: String, enumOrNot value: Value) {
    append(name)
    descend(intoValue: value)
  }

  /// Descends into `value` when it is an enum.
  private mutating func descend<Value>(intoValue value: Value) {
    let kind = JournalCaseNaming.kind(ofTyped: value)
    if case let .enum(namer?) = kind {
      withUnsafePointer(to: value) { namer(UnsafeRawPointer($0), &self) }
    } else {
      descend(into: ActionLevel(value, kind: kind))
    }
  }

  /// Appends a case without associated values.
  public mutating func _case(_ name: String) {
    append(name)
  }

  /// Appends a case with one associated value, and descends into it when it is an enum, or into
  /// the last enum of a tuple.
  public mutating func _case<Value>(_ name: String, _ value: Value) {
    append(name)
    descend(into: ActionLevel(associatedValue: value))
  }

  /// Appends a case with one associated value that names its own case, and descends into it
  /// without boxing it or asking at run time what it is: the macro's `switch` calls this one
  /// whenever the value's type is known to conform.
  public mutating func _case<Value: _JournalCaseNamed>(_ name: String, _ value: Value) {
    append(name)
    if JournalCaseNaming.namesItself(value) {
      value._appendJournalCaseName(to: &self)
    } else {
      descend(into: ActionLevel(associatedValue: value))
    }
  }

  /// Appends a case with several associated values, and descends into the last one that is an
  /// enum.
  public mutating func _case<each Value>(_ name: String, lastEnumOf values: repeat each Value) {
    append(name)
    var last: ActionLevel?
    for value in repeat each values {
      if let level = ActionLevel(value) { last = level }
    }
    descend(into: last)
  }

  private mutating func descend(into level: ActionLevel?) {
    var next = level
    while let level = next {
      next = nil
      switch level {
      case let .named(action):
        action._appendJournalCaseName(to: &self)
      case let .withoutValues(name):
        append(name)
      case let .read(name, payload):
        append(name)
        next = payload.flatMap { ActionLevel(associatedValue: $0) }
      case let .reflected(value, mirror):
        guard let child = mirror.children.first, let label = child.label else {
          let name = String(describing: value)
          CaseNames.shared.remember(name, of: value)
          append(name)
          break
        }
        append(label)
        next = ActionLevel(associatedValue: child.value)
      }
    }
  }
}

/// One enum on the way down an action, and how its case is read.
private enum ActionLevel {
  /// An enum that names its case.
  case named(any _JournalCaseNamed)
  /// A case without associated values whose name is known.
  case withoutValues(String)
  /// A case read from its type's metadata (``EnumCaseReading``), with its associated value.
  case read(name: String, payload: Any?)
  /// Any other enum, read through its mirror.
  case reflected(Any, Mirror)

  /// The level of a value, or nil when it is not an enum.
  init?(_ value: Any) {
    self.init(value, kind: nil)
  }

  /// The level of a value whose ``JournalCaseNaming/kind(of:)`` is `kind`, when known.
  init?(_ value: Any, kind: JournalCaseNaming.Kind?) {
    switch Self.classify(value, kind: kind) {
    case let .level(level): self = level
    case .other: return nil
    }
  }

  /// The level inside an associated value: the value itself when it is an enum, or the last enum
  /// of a tuple.
  init?(associatedValue value: Any) {
    switch Self.classify(value) {
    case let .level(level): self = level
    case let .other(mirror):
      guard let mirror, mirror.displayStyle == .tuple else { return nil }
      self.init(lastEnumIn: mirror.children.map(\.value))
    }
  }

  /// The level of the last value that is an enum.
  init?(lastEnumIn values: [Any]) {
    for value in values.reversed() {
      if let level = ActionLevel(value) {
        self = level
        return
      }
    }
    return nil
  }

  private enum Classified {
    case level(ActionLevel)
    /// Not an enum; the mirror when one was needed to tell (nil: not a tuple either).
    case other(Mirror?)
  }

  private static func classify(_ value: Any, kind: JournalCaseNaming.Kind? = nil) -> Classified {
    switch kind ?? JournalCaseNaming.kind(of: value) {
    case let .enum(namer):
      // Only an enum is asked for its names: a cast would unwrap an optional.
      if namer != nil, let named = value as? any _JournalCaseNamed {
        return .level(.named(named))
      }
      if let read = EnumCaseReading.read(value) {
        return .level(.read(name: read.name, payload: read.payload))
      }
      if let name = CaseNames.shared.name(of: value) { return .level(.withoutValues(name)) }
    case .neitherEnumNorTuple, .tupleWithoutLevels:
      return .other(nil)
    case .unknown:
      break
    }
    let mirror = Mirror(reflecting: value)
    return mirror.displayStyle == .enum ? .level(.reflected(value, mirror)) : .other(mirror)
  }
}

/// What the walk learns of types without reflecting a value.
enum JournalCaseNaming {
  /// Whether a conforming value's own names are what reflection gives: it has neither a mirror
  /// nor a description of its own (a case without associated values is named by its
  /// description). Known per type, once.
  static func namesItself<Named: _JournalCaseNamed>(_ value: Named) -> Bool {
    // An enum's dynamic type is its static type.
    let type = ObjectIdentifier(Named.self)
    if let known = plainTypes[type] { return known }
    let plain = reflectsPlainly(value)
    plainTypes[type] = plain
    return plain
  }

  /// Whether reflection reads `value` as any value of its type: it has neither a mirror nor a
  /// description of its own (a case without associated values is named by its description).
  static func reflectsPlainly<Value>(_ value: Value) -> Bool {
    !(value is any CustomReflectable) && !(value is any CustomStringConvertible)
      && !(value is any CustomDebugStringConvertible) && !(value is any TextOutputStreamable)
  }

  private static let plainTypes = LockedDictionary<ObjectIdentifier, Bool>()

  /// Names a value of an enum type that names its own cases, in place: the value is at the
  /// pointer, of the type the function was made for.
  typealias Namer = (UnsafeRawPointer, inout _JournalCaseName) -> Void

  enum Kind {
    /// An enum (not an optional), with the function that names a value of it when it names its
    /// own cases as reflection would (``namesItself(_:)``): a typed value is named through it,
    /// without a box or a cast.
    case `enum`(namer: Namer?)
    /// A value whose mirror cannot say `.enum` or `.tuple`: a struct, class or optional without
    /// a mirror of its own, or one of the standard library's scalars and strings (whose mirrors
    /// have no display style).
    case neitherEnumNorTuple
    /// A tuple none of whose elements can be a level (see ``holdsNoLevel(_:)``): the last enum
    /// of its elements, looked for in an associated value, is none. A case with one labelled
    /// associated value (`case scrolled(offset: Double)`) holds such a tuple.
    case tupleWithoutLevels
    /// Anything else: its mirror tells.
    case unknown
  }

  /// What `value` is, as far as the walk needs to know without reflecting it. Known per type,
  /// once: the casts that tell cost more than looking the answer up.
  static func kind(of value: Any) -> Kind {
    let type = Swift.type(of: value)
    if isScalarOrString(type) { return .neitherEnumNorTuple }
    let id = ObjectIdentifier(type)
    if let known = kinds[id] { return known }
    let kind: Kind
    switch metadataKind(of: type) {
    case MetadataKind.enum:
      let named = (value as? any _JournalCaseNamed).flatMap { namesItself($0) ? $0 : nil }
      kind = .enum(namer: named.map(namer(of:)))
    case MetadataKind.struct, MetadataKind.optional, MetadataKind.class:
      kind = value is any CustomReflectable ? .unknown : .neitherEnumNorTuple
    case MetadataKind.tuple:
      kind = holdsNoLevel(type) ? .tupleWithoutLevels : .unknown
    default:
      kind = .unknown
    }
    kinds[id] = kind
    return kind
  }

  private static let kinds = LockedDictionary<ObjectIdentifier, Kind>()

  /// What `value` is, as ``kind(of:)`` tells; looked up by its static type without boxing it
  /// when that type is an enum's, whose values are all of it.
  static func kind<Value>(ofTyped value: Value) -> Kind {
    guard isEnum(Value.self) else { return kind(of: value) }
    return kinds[ObjectIdentifier(Value.self)] ?? kind(of: value)
  }

  /// The function that names values of `named`'s type in place.
  private static func namer(of named: any _JournalCaseNamed) -> Namer {
    func make<Named: _JournalCaseNamed>(_: Named) -> Namer {
      { value, name in
        value.assumingMemoryBound(to: Named.self).pointee._appendJournalCaseName(to: &name)
      }
    }
    return _openExistential(named, do: make)
  }

  /// Whether no element of the tuple type `type` can be a level, whatever its value: each is
  /// one of the scalars and strings above, a struct without a mirror of its own, an optional
  /// (whose mirror never says `.enum`) or a tuple (not looked into, inside a tuple). An enum, a
  /// class (an instance may be of a subclass with a mirror of its own), an existential and
  /// anything else are left to the tuple's mirror.
  ///
  /// The elements' types are read from the tuple's metadata, as the Swift ABI lays it out: its
  /// kind, its count of elements, its labels, then each element's type and offset.
  private static func holdsNoLevel(_ type: Any.Type) -> Bool {
    #if _ptrauth(_arm64e)
      return false
    #else
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      let word = MemoryLayout<UnsafeRawPointer>.size
      let count = metadata.load(fromByteOffset: word, as: Int.self)
      return (0..<count).allSatisfy { index in
        let element = metadata.load(fromByteOffset: (3 + 2 * index) * word, as: Any.Type.self)
        return isNeverLevel(element)
      }
    #endif
  }

  /// Whether a value of type `type` is never a level, whatever its value (see
  /// ``holdsNoLevel(_:)``).
  private static func isNeverLevel(_ type: Any.Type) -> Bool {
    if isScalarOrString(type) { return true }
    switch metadataKind(of: type) {
    case MetadataKind.struct: return !(type is any CustomReflectable.Type)
    case MetadataKind.optional, MetadataKind.tuple: return true
    default: return false
    }
  }

  /// One of the standard library's scalars and strings most associated values are, known
  /// without a lookup.
  private static func isScalarOrString(_ type: Any.Type) -> Bool {
    type == String.self || type == Int.self || type == Double.self || type == Bool.self
      || type == Int64.self || type == Float.self || type == UInt.self || type == Substring.self
  }

  /// The kinds of type metadata the walk tells apart, as the Swift ABI numbers them.
  private enum MetadataKind {
    static let `class` = 0
    static let `struct` = 0x200
    static let `enum` = 0x201
    static let optional = 0x202
    static let tuple = 0x301
  }

  /// Whether `type` is an enum (not an optional): a static type of that kind is the dynamic
  /// type of its values.
  static func isEnum(_ type: Any.Type) -> Bool {
    metadataKind(of: type) == MetadataKind.enum
  }

  /// The kind of a type's metadata: its first word, or for a Swift class, the address of its
  /// Objective-C-compatible isa (above 0x7FF), which the ABI counts as a class.
  private static func metadataKind(of type: Any.Type) -> Int {
    let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self)
    return kind > 0x7FF ? MetadataKind.class : kind
  }
}

/// The names of enum cases without associated values, by type and case, learnt from reflection
/// the first time each is recorded. Such a value is its case, so its name cannot change.
///
/// A type that supplies its own mirror (`CustomReflectable`) is left out: what its mirror says
/// may depend on more than the case.
package final class CaseNames: Sendable {
  package static let shared = CaseNames()

  private struct Key: Hashable {
    let type: ObjectIdentifier
    let tag: UInt32
  }

  private let names = LockedDictionary<Key, String>()

  package func name(of value: Any) -> String? {
    guard let key = Self.key(of: value) else { return nil }
    return names[key]
  }

  package func remember(_ name: String, of value: Any) {
    guard !(value is any CustomReflectable), let key = Self.key(of: value) else { return }
    names[key] = name
  }

  private static func key(of value: Any) -> Key? {
    guard let tag = enumCaseTag(of: value) else { return nil }
    return Key(type: ObjectIdentifier(type(of: value)), tag: tag)
  }
}
