/// Reading which case an enum value holds, its name and its associated value, through the type's
/// metadata instead of a `Mirror`.
///
/// A `Mirror` of an enum looks up the case's field record and resolves the associated value's
/// type from its mangled name on every reflection; naming an action that goes two enums deep
/// without the macro (a `@CasePathable` enum, an enum written by hand) cost about 47,000
/// instructions that way. This reads what the runtime's own reflection reads, in the layouts the
/// Swift ABI fixes (stable since Swift 5): the value witness table the word before an enum's
/// metadata (`getEnumTag`, `destructiveProjectEnumData`, `destructiveInjectEnumTag`), the enum's
/// type descriptor the word after it, and its field records, one per case, the cases with an
/// associated value first, in the order of their tags. Each type's cases are read once; each
/// case, the first time it is met, is read both ways and trusted only when its name, its
/// associated value's type and that value's reflected text agree with the `Mirror`'s; otherwise
/// (and for an `indirect` case, a type with a mirror or description of its own, or anything this
/// does not recognise) the caller reflects.
package enum EnumCaseReading {
  /// The case `value` holds: its name and its associated value (nil for a case without one), or
  /// nil when `value` is not an enum or its case is not read this way.
  package static func read(_ value: Any) -> (name: String, payload: Any?)? {
    func read<Enum>(_ value: Enum) -> (name: String, payload: Any?)? {
      guard let witnesses = EnumWitnesses(Enum.self) else { return nil }
      let tag = Int(witnesses.tag(of: value))
      let type = ObjectIdentifier(Enum.self)
      // One look under the lock finds the type's table and how far its case is trusted.
      var found = tables.withLock { tables in
        tables[type].map { table in (table, table.map { $0.trust(tag) } ?? .reflected) }
      }
      if found == nil {
        let table = CaseTable(value, witnesses)
        found = tables.withLock { tables in
          tables[type] = table
          return (table, table.map { $0.trust(tag) } ?? .reflected)
        }
      }
      guard let (known, trust) = found, trust != .reflected, let table = known,
        tag < table.cases.count, let layout = table.cases[tag]
      else { return nil }
      let payload = layout.payloadType.map { project(value, tag: tag, as: $0, witnesses) }
      if trust == .unchecked {
        let agrees = Self.agrees(value, name: layout.name, payload: payload)
        tables.withLock { _ in table.trust[tag] = agrees ? .trusted : .reflected }
        guard agrees else { return nil }
      }
      return (layout.name, payload)
    }
    return _openExistential(value, do: read)
  }

  /// The tables of the enum types met, by type; nil for a type whose cases are not read this way.
  /// Also the lock of each table's `trust`.
  private static let tables = LockedDictionary<ObjectIdentifier, CaseTable?>()

  /// A copy of the associated value of `value`'s case, whose type is `type`.
  private static func project<Enum>(
    _ value: Enum, tag: Int, as type: Any.Type, _ witnesses: EnumWitnesses
  ) -> Any {
    func load<Payload>(_: Payload.Type, from address: UnsafeRawPointer) -> Any {
      address.assumingMemoryBound(to: Payload.self).pointee
    }
    var copy = value
    return withUnsafeMutablePointer(to: &copy) { pointer in
      let address = UnsafeMutableRawPointer(pointer)
      // Takes the case's tag out of the value's bytes, leaving its associated value at their
      // start, then puts it back, so the copy is destroyed as the enum it is.
      witnesses.projectPayload(in: address)
      defer { witnesses.injectTag(UInt32(tag), into: address) }
      return load(type, from: address)
    }
  }

  /// Whether reflection reads `value` as `name` with `payload`.
  package static func agrees(_ value: Any, name: String, payload: Any?) -> Bool {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { return false }
    guard let child = mirror.children.first else {
      return payload == nil && String(describing: value) == name
    }
    guard let payload, child.label == name else { return false }
    return type(of: child.value) == type(of: payload)
      && String(reflecting: child.value) == String(reflecting: payload)
  }

  /// Whether a case read from the metadata has been compared with reflection.
  enum Trust {
    case unchecked, trusted, reflected
  }

  /// One case as its field record gives it.
  struct CaseLayout {
    let name: String
    /// The associated value's type, resolved once; nil for a case without one.
    let payloadType: Any.Type?
  }

  /// The cases of one enum type, by tag; nil for a case not read this way.
  final class CaseTable: @unchecked Sendable {
    let cases: [CaseLayout?]
    /// Read and changed only inside `tables.withLock`.
    var trust: [Trust]

    /// How far the case `tag` is trusted; a tag without a record is not read.
    func trust(_ tag: Int) -> Trust { tag < trust.count ? trust[tag] : .reflected }

    /// The table of `value`'s type, or nil when the type's cases are not read this way: a type
    /// with a mirror or description of its own (reflection names its cases by them), or one
    /// whose descriptor is not an enum's with a record for each case.
    init?<Enum>(_ value: Enum, _ witnesses: EnumWitnesses) {
      guard JournalCaseNaming.reflectsPlainly(value), let cases = Self.cases(of: witnesses.metadata)
      else { return nil }
      self.cases = cases
      self.trust = Array(repeating: .unchecked, count: cases.count)
    }

    private static func cases(of metadata: UnsafeRawPointer) -> [CaseLayout?]? {
      let word = MemoryLayout<UnsafeRawPointer>.size
      // An enum's metadata: its kind, then its descriptor, then its generic arguments.
      guard let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self)
      else { return nil }
      // The descriptor: flags, parent, name, access function (32 bits each), its field
      // descriptor (relative), the count of cases with associated values (the low 24 bits), the
      // count of cases without.
      let flags = descriptor.load(as: UInt32.self)
      let enumKind: UInt32 = 18
      let isGeneric: UInt32 = 0x80
      guard flags & 0x1F == enumKind,
        let fields = relative(descriptor, at: 16)
      else { return nil }
      let payloadCases = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0xFF_FFFF)
      let emptyCases = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
      // The field descriptor: the type's mangled name, its superclass (relative), its kind and
      // record size (16 bits each), the count of records, then the records.
      let fieldKind = fields.load(fromByteOffset: 8, as: UInt16.self)
      let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
      let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
      let enumFields: ClosedRange<UInt16> = 2...3  // an enum, a multi-payload enum
      guard enumFields.contains(fieldKind), recordSize >= 12, count == payloadCases + emptyCases
      else { return nil }
      let arguments = flags & isGeneric != 0 ? metadata + 2 * word : nil
      return (0..<count).map { index in
        // A record: flags (32 bits), the associated value's mangled type (relative, none for a
        // case without one), the case's name (relative).
        let record = fields + 16 + index * recordSize
        let indirect: UInt32 = 0x1
        guard record.load(as: UInt32.self) & indirect == 0,
          let name = relative(record, at: 8)
        else { return nil }
        let caseName = String(cString: name.assumingMemoryBound(to: CChar.self))
        guard let mangled = relative(record, at: 4) else {
          return index < payloadCases ? nil : CaseLayout(name: caseName, payloadType: nil)
        }
        guard index < payloadCases,
          let type = _getTypeByMangledNameInContext(
            mangled.assumingMemoryBound(to: UInt8.self), UInt(mangledNameLength(mangled)),
            genericContext: descriptor, genericArguments: arguments)
        else { return nil }
        return CaseLayout(name: caseName, payloadType: type)
      }
    }

    /// The address a 32-bit relative offset at `offset` points to, or nil for a zero offset.
    private static func relative(_ base: UnsafeRawPointer, at offset: Int) -> UnsafeRawPointer? {
      let distance = base.load(fromByteOffset: offset, as: Int32.self)
      return distance == 0 ? nil : base + offset + Int(distance)
    }

    /// The length of a mangled name that may hold symbolic references: a byte from 1 to 0x17
    /// followed by a 32-bit relative offset, or from 0x18 to 0x1F followed by a pointer.
    private static func mangledNameLength(_ name: UnsafeRawPointer) -> Int {
      var length = 0
      while true {
        let byte = name.load(fromByteOffset: length, as: UInt8.self)
        switch byte {
        case 0: return length
        case 0x01...0x17: length += 5
        case 0x18...0x1F: length += 1 + MemoryLayout<UnsafeRawPointer>.size
        default: length += 1
        }
      }
    }
  }
}

/// An enum type's value witnesses, as the Swift ABI lays them out: the table's address is the
/// word before the type's metadata; eight functions, then size and stride (a word each), then the
/// flags and the count of extra inhabitants (32 bits each); an enum's table says so in its flags
/// and goes on with `getEnumTag`, `destructiveProjectEnumData` and `destructiveInjectEnumTag`.
struct EnumWitnesses {
  let metadata: UnsafeRawPointer
  private let table: UnsafeRawPointer

  private typealias GetTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  private typealias Project = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
  private typealias Inject =
    @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

  private static let word = MemoryLayout<UnsafeRawPointer>.size
  private static let flagsOffset = 10 * word

  /// The witnesses of `type`, or nil when it is not an enum (an `Optional` included), or where
  /// the runtime signs the pointers read here (arm64e's pointer authentication): there, callers
  /// reflect.
  init?(_ type: Any.Type) {
    #if _ptrauth(_arm64e)
      return nil
    #endif
    guard JournalCaseNaming.isEnum(type) else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let table = metadata.load(fromByteOffset: -Self.word, as: UnsafeRawPointer.self)
    let hasEnumWitnesses: UInt32 = 0x0020_0000
    guard table.load(fromByteOffset: Self.flagsOffset, as: UInt32.self) & hasEnumWitnesses != 0
    else { return nil }
    self.metadata = metadata
    self.table = table
  }

  /// The tag of the case `value` holds: its index among the type's field records. `value` is of
  /// the type these witnesses are for.
  func tag<Enum>(of value: Enum) -> UInt32 {
    let getTag = table.load(fromByteOffset: Self.flagsOffset + 8, as: GetTag.self)
    return withUnsafePointer(to: value) { getTag(UnsafeRawPointer($0), metadata) }
  }

  /// Leaves the associated value of the enum at `value` at its start, without its case's tag.
  func projectPayload(in value: UnsafeMutableRawPointer) {
    table.load(fromByteOffset: Self.flagsOffset + 8 + Self.word, as: Project.self)(value, metadata)
  }

  /// Puts the case `tag` back into a value that `projectPayload` left.
  func injectTag(_ tag: UInt32, into value: UnsafeMutableRawPointer) {
    table.load(fromByteOffset: Self.flagsOffset + 8 + 2 * Self.word, as: Inject.self)(
      value, tag, metadata)
  }
}

/// The index of the case an enum value holds, or nil for a value that is not an enum (an
/// `Optional` included). The standard library has no public call for this; reflection finds the
/// case too, but at a cost this avoids.
package func enumCaseTag(of value: Any) -> UInt32? {
  func tag<Value>(_ value: Value) -> UInt32? {
    guard let witnesses = EnumWitnesses(Value.self) else { return nil }
    return witnesses.tag(of: value)
  }
  return _openExistential(value, do: tag)
}

/// The name of the case an enum value is in, e.g. `"counter"`, or `nil` for a value that is not
/// an enum.
func enumCaseName(of value: Any) -> String? {
  enumCase(of: value)?.name
}

/// The case an enum value is in, with its associated value (`nil` for a case without one): read
/// from the type's metadata (``EnumCaseReading``) where it can be, reflected otherwise; `nil`
/// for a value that is not an enum, or whose case has no name to give.
func enumCase(of value: Any) -> (name: String, payload: Any?)? {
  // Known from the metadata's kind, so a struct is never reflected.
  guard JournalCaseNaming.isEnum(type(of: value)) else { return nil }
  if let read = EnumCaseReading.read(value) { return read }
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return nil }
  if let child = mirror.children.first, let label = child.label { return (label, child.value) }
  // A case without a payload has no child; it prints as its name.
  let printed = String(describing: value)
  return printed.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? (printed, nil) : nil
}
