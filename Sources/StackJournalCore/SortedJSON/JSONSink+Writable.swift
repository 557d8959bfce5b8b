import Foundation
import StackNavigation

// What a ``_JournalJSONWritable`` value writes into a ``JSONSink``: objects opened and closed
// whole, members already in key order, so none of the frames, member lists and sorting that
// `Encodable`'s containers need; a member of any other type goes through them.

extension JSONSink: _JournalJSONOutput {
  func _openCase<T>(_ value: T, index: Int, name: StaticString) throws {
    try check(value, index)
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

  func _openObject<T>(_ value: T) throws {
    try check(value, 0)
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

  /// Throws when the case `value` holds was found to differ from its type's `Encodable`;
  /// checks it first when it was not checked yet.
  private func check<T>(_ value: T, _ index: Int) throws {
    let key = WritableChecks.Case(type: ObjectIdentifier(T.self), index: index)
    if checking.contains(key) { return }
    guard WritableChecks.shared.agrees(value, key, checking: checking) else {
      throw NotLikeJSONEncoder()
    }
  }
}

extension _JournalJSONOutput {
  /// Writes `value`, whose type is `W` at run time (found by a cast to
  /// `any _JournalJSONWritable.Type`), to this output through its writer.
  func write<T, W: _JournalJSONWritable>(_ value: T, as type: W.Type) throws {
    var json = _JournalJSON(output: self)
    try withUnsafePointer(to: value) { pointer in
      try pointer.withMemoryRebound(to: W.self, capacity: 1) {
        try $0.pointee._writeJournalJSON(to: &json)
      }
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
/// met is written both ways and the two compared: equal, the case is trusted from then on;
/// different, that case is written through `Encodable` from then on. The cases met inside the
/// value are checked first, each on its own value; while a value is checked, its own case is
/// trusted in it (`checking`).
final class WritableChecks: @unchecked Sendable {
  struct Case: Hashable {
    let type: ObjectIdentifier
    let index: Int
  }

  static let shared = WritableChecks()

  private let lock = NSLock()
  private var agreeing: Set<Case> = []
  private var differing: Set<Case> = []

  /// Whether the case `key` of `value` writes what its `Encodable` writes: as found before, or
  /// found now.
  func agrees<T>(_ value: T, _ key: Case, checking: Set<Case>) -> Bool {
    lock.lock()
    let known: Bool? = agreeing.contains(key) ? true : differing.contains(key) ? false : nil
    lock.unlock()
    if let known { return known }
    let agrees = check(value, key, checking: checking)
    lock.lock()
    if agrees { agreeing.insert(key) } else { differing.insert(key) }
    lock.unlock()
    return agrees
  }

  /// Whether the case is known to agree, without checking it.
  func isKnownToAgree(_ key: Case) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return agreeing.contains(key)
  }

  private func check<T>(_ value: T, _ key: Case, checking: Set<Case>) -> Bool {
    guard let encodable = value as? any Encodable else { return false }
    return check(encodable, key, checking: checking)
  }

  private func check<E: Encodable>(_ value: E, _ key: Case, checking: Set<Case>) -> Bool {
    let written = JSONSink(checking: checking.union([key]))
    guard (try? written.writeValue(value, pathCount: 0, key: nil)) != nil, !written.refused,
      let encoded = SortedJSONEncoder.encodableBytes(value)
    else { return false }
    return written.writer.bytes.equals(encoded)
  }
}
