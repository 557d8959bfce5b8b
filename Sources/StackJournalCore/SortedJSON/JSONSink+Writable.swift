import Foundation
import StackNavigation

// What a ``_JournalJSONWritable`` value writes into a ``JSONSink``: objects opened and closed
// whole, members already in key order, so none of the frames, member lists and sorting that
// `Encodable`'s containers need; a member of any other type goes through them.

extension JSONSink: _JournalJSONOutput {
  func _openCase(of type: Any.Type, index: Int, name: StaticString) throws {
    try check(type, index)
    if writableDepth == 0, frames.isEmpty {
      // The outermost value: an object of one member, the case.
      onlyKey = String(describing: name)
    }
    writer.raw("{\"")
    writer.raw(name)
    writer.raw("\":{")
    writableDepth += 1
    writableNeedsComma = false
  }

  func _openObject(of type: Any.Type) throws {
    try check(type, 0)
    writer.raw("{")
    writableDepth += 1
    writableNeedsComma = false
    if writableDepth == 1, frames.isEmpty {
      outermostMembers = 0
      outermostFirstKey = nil
    }
  }

  func _close(case: Bool) {
    writer.raw(`case` ? "}}" : "}")
    writableDepth -= 1
    writableNeedsComma = true
    if !`case`, writableDepth == 0, frames.isEmpty {
      onlyKey = outermostMembers == 1 ? outermostFirstKey.map { String(describing: $0) } : nil
    }
  }

  func _key(_ key: StaticString) {
    if writableNeedsComma { writer.bytes.append(UInt8(ascii: ",")) }
    writableNeedsComma = true
    if writableDepth == 1, frames.isEmpty {
      outermostMembers += 1
      if outermostFirstKey == nil { outermostFirstKey = key }
    }
    writer.raw("\"")
    writer.raw(key)
    writer.raw("\":")
  }

  func _string(_ value: String) throws {
    writer.string(value)
  }

  func _bool(_ value: Bool) {
    writeBool(value)
  }

  func _signed(_ value: Int64) {
    writer.integer(value)
  }

  func _unsigned(_ value: UInt64) {
    writer.integer(value)
  }

  func _double(_ value: Double) throws {
    try writeNumber(value)
  }

  func _float(_ value: Float) throws {
    try writeNumber(value)
  }

  func _raw(_ text: StaticString) {
    writer.raw(text)
  }

  func _encodable<T: Encodable>(_ value: T, key: StaticString) throws {
    try writeValue(value, pathCount: path.count, key: WritableMemberKey(key))
    writableNeedsComma = true
  }

  /// Throws when the case was found to differ from the type's `Encodable`; notes it when it was
  /// not checked yet.
  private func check(_ type: Any.Type, _ index: Int) throws {
    let key = WritableChecks.Case(type: ObjectIdentifier(type), index: index)
    switch WritableChecks.shared.status(of: key) {
    case .agrees: return
    case .differs: throw NotLikeJSONEncoder()
    case .unknown: unchecked.append(key)
    }
  }
}

/// A writable value's member key in a coding path.
struct WritableMemberKey: CodingKey {
  let key: StaticString
  var stringValue: String { String(describing: key) }
  var intValue: Int? { nil }

  init(_ key: StaticString) { self.key = key }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}

/// Which cases of ``_JournalJSONWritable`` types were found to write what their `Encodable`
/// writes, and which did not, for the life of the process.
///
/// The code the macros generate writes what a synthesized `Encodable` writes; a type may encode
/// itself otherwise in code the macros do not see. So the first value of each case (each struct)
/// written is written again through `Encodable` and the two compared: equal, the case is trusted
/// from then on; different, its type is written through `Encodable` from then on.
final class WritableChecks: @unchecked Sendable {
  struct Case: Hashable {
    let type: ObjectIdentifier
    let index: Int
  }

  enum Status {
    case unknown, agrees, differs
  }

  static let shared = WritableChecks()

  private let lock = NSLock()
  private var agreeing: Set<Case> = []
  private var differing: Set<ObjectIdentifier> = []

  func status(of key: Case) -> Status {
    lock.lock()
    defer { lock.unlock() }
    if agreeing.contains(key) { return .agrees }
    return differing.contains(key.type) ? .differs : .unknown
  }

  func agree(_ cases: [Case]) {
    lock.lock()
    defer { lock.unlock() }
    agreeing.formUnion(cases)
  }

  /// Marks the types of `cases` as differing: which of them differed is not known, so each is
  /// written through `Encodable` from then on.
  func differ(_ cases: [Case]) {
    lock.lock()
    defer { lock.unlock() }
    for key in cases {
      differing.insert(key.type)
      agreeing.remove(key)
    }
  }
}
