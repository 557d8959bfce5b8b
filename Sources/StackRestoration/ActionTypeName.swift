import StackNavigation

/// The journal type of an action: its case path, such as
/// `path.element.counter.incrementButtonTapped`.
///
/// The name of each enum case, descending into a case's associated value when it is itself an
/// enum (for a tuple of associated values, into the last one that is an enum). Reflection is the
/// costliest part of recording an action, so it is spared where the answer is known otherwise:
/// ``StackAction`` and ``RouterAction`` name their own cases, and a case without associated
/// values is named once per type and case (``CaseNames``), then looked up.
public func actionTypeName(_ action: Any) -> String {
  var names: [String] = []
  var next = ActionLevel(action)
  while let level = next {
    next = nil
    switch level {
    case let .named(action):
      names.append(action.journalCaseName)
      next = ActionLevel(lastEnumIn: action.journalCaseValues)
    case let .withoutValues(name):
      names.append(name)
    case let .reflected(value, mirror):
      guard let child = mirror.children.first, let label = child.label else {
        let name = String(describing: value)
        CaseNames.shared.remember(name, of: value)
        names.append(name)
        break
      }
      names.append(label)
      next = ActionLevel(associatedValue: child.value)
    }
  }
  return names.joined(separator: ".")
}

/// One enum on the way down an action, and how its case is read.
private enum ActionLevel {
  /// A stack or router action, which names its case.
  case named(any JournalNamedAction)
  /// A case without associated values whose name is known.
  case withoutValues(String)
  /// Any other enum, read through its mirror.
  case reflected(Any, Mirror)

  /// The level of a value, or nil when it is not an enum.
  init?(_ value: Any) {
    switch Self.classify(value) {
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
      guard mirror.displayStyle == .tuple else { return nil }
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
    case other(Mirror)
  }

  private static func classify(_ value: Any) -> Classified {
    if let named = value as? any JournalNamedAction { return .level(.named(named)) }
    if let name = CaseNames.shared.name(of: value) { return .level(.withoutValues(name)) }
    let mirror = Mirror(reflecting: value)
    return mirror.displayStyle == .enum ? .level(.reflected(value, mirror)) : .other(mirror)
  }
}

/// The names of enum cases without associated values, by type and case, learnt from reflection
/// the first time each is recorded. Such a value is its case, so its name cannot change.
///
/// A type that supplies its own mirror (`CustomReflectable`) is left out: what its mirror says
/// may depend on more than the case.
final class CaseNames: Sendable {
  static let shared = CaseNames()

  private struct Key: Hashable {
    let type: ObjectIdentifier
    let tag: UInt32
  }

  private let names = LockIsolated<[Key: String]>([:])

  func name(of value: Any) -> String? {
    guard let key = Self.key(of: value) else { return nil }
    return names.withValue { $0[key] }
  }

  func remember(_ name: String, of value: Any) {
    guard !(value is any CustomReflectable), let key = Self.key(of: value) else { return }
    names.withValue { $0[key] = name }
  }

  private static func key(of value: Any) -> Key? {
    guard let tag = enumCaseTag(of: value) else { return nil }
    return Key(type: ObjectIdentifier(type(of: value)), tag: tag)
  }
}

/// The index of the case an enum value holds, or nil for a value that is not an enum (an
/// `Optional` included).
///
/// Read through the value witness table of the value's type, laid out by the Swift ABI (stable
/// since Swift 5): the table's address is the word before the type's metadata, an enum's table
/// says so in its flags, and its `getEnumTag` follows the common entries. The standard library
/// has no public call for this; reflection finds the case too, but at a cost this avoids.
func enumCaseTag(of value: Any) -> UInt32? {
  func tag<Value>(_ value: Value) -> UInt32? {
    let metadata = unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
    let enumKind = 0x201
    guard metadata.load(as: Int.self) == enumKind else { return nil }
    let word = MemoryLayout<UnsafeRawPointer>.size
    let witnesses = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
    // Eight functions, then size and stride (a word each), then the flags and the count of
    // extra inhabitants (32 bits each); an enum's table goes on with `getEnumTag`.
    let flagsOffset = 10 * word
    let hasEnumWitnesses: UInt32 = 0x0020_0000
    let flags = witnesses.load(fromByteOffset: flagsOffset, as: UInt32.self)
    guard flags & hasEnumWitnesses != 0 else { return nil }
    typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    let getEnumTag = witnesses.load(fromByteOffset: flagsOffset + 8, as: GetEnumTag.self)
    return withUnsafePointer(to: value) { getEnumTag(UnsafeRawPointer($0), metadata) }
  }
  return _openExistential(value, do: tag)
}
