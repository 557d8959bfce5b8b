import Foundation
import StackNavigation

/// Walks a ``_JournalJSONWritable`` value for the stacks in it through its writer instead of its
/// `Encodable`: the members the writer writes itself (strings, numbers, arrays of them, writable
/// values) hold no stack and cost nothing here; every other member is walked through
/// ``CodingPathEncoder`` at the coding path its `Encodable` would give it.
///
/// Only cases found to agree with their type's `Encodable` (``WritableChecks``, which checks a
/// case met for the first time) are walked this way: a value whose case differs is walked
/// through its `Encodable` where it stands, and what its writer then writes is ignored up to
/// its end.
final class WritableWalk: _JournalJSONOutput {
  private enum Level {
    case object(pathCount: Int)
    case array(pathCount: Int, index: Int)
  }

  private var path: [any CodingKey]
  private let userInfo: [CodingUserInfoKey: Any]
  private var levels: [Level] = []
  private var lastKey: StaticString = ""
  /// How many objects deep the walk is inside a value walked through its `Encodable` (whose
  /// writer still writes to this walk): 0 when not in one.
  private var muted = 0

  private init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
    self.path = codingPath
    self.userInfo = userInfo
  }

  /// Walks `value` at `codingPath`: through its writer when it has one, otherwise through its
  /// `Encodable`.
  static func walk<T: Encodable>(
    _ value: T, at codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]
  ) throws {
    if let writable = T.self as? any _JournalJSONWritable.Type {
      try WritableWalk(codingPath: codingPath, userInfo: userInfo).write(value, as: writable)
    } else {
      try walkThroughEncodable(value, at: codingPath, userInfo: userInfo)
    }
  }

  /// Walks `value` at `codingPath` through its `Encodable`.
  static func walkThroughEncodable<E: Encodable>(
    _ value: E, at codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]
  ) throws {
    try value.encode(to: CodingPathEncoder(codingPath: codingPath, userInfo: userInfo))
  }

  /// Opens the object of `value`, holding case `index` (named `name` for an enum's case), or,
  /// when that case differs from its `Encodable`, walks it through `Encodable` and mutes what
  /// its writer writes next.
  private func open<T>(_ value: T, index: Int, case name: StaticString?) throws {
    if muted > 0 {
      muted += 1
      return
    }
    open()
    let key = WritableChecks.Case(type: ObjectIdentifier(T.self), index: index)
    if WritableChecks.shared.agrees(value, key, checking: []) {
      if let name { path.append(WritableMemberKey(name)) }
      return
    }
    // A writer runs only on a value reached through an `Encodable` (or found to be one, by
    // `_JournalJSON`'s members), so the cast cannot fail; if it did, nothing could be walked.
    guard let encodable = value as? any Encodable else { throw _JournalJSONNotEncodable() }
    try Self.walkThroughEncodable(encodable, at: path, userInfo: userInfo)
    muted = 1
  }

  /// Opens an object: the outermost one where the walk started, an array's element, or the
  /// value of the member just keyed.
  private func open() {
    switch levels.last {
    case nil:
      levels.append(.object(pathCount: path.count))
    case let .array(_, index):
      levels.append(.object(pathCount: path.count))
      path.append(CodingPathEncoder.IndexKey(intValue: index))
    case .object:
      levels.append(.object(pathCount: path.count))
      path.append(WritableMemberKey(lastKey))
    }
  }

  private func restore(_ level: Level?) {
    switch level {
    case let .object(count), let .array(count, _):
      while path.count > count { path.removeLast() }
    case nil:
      break
    }
  }

  func _openCase<T>(_ value: T, index: Int, name: StaticString) throws {
    try open(value, index: index, case: name)
  }

  func _openObject<T>(_ value: T) throws {
    try open(value, index: 0, case: nil)
  }

  func _close(case: Bool) {
    if muted > 0 {
      muted -= 1
      if muted > 0 { return }
    }
    restore(levels.popLast())
  }

  func _key(_ key: StaticString) {
    lastKey = key
  }

  func _raw(_ text: StaticString) {
    guard muted == 0 else { return }
    // The writers' punctuation of arrays: `[`, `,` between elements, `]`.
    switch text.utf8Start.pointee {
    case UInt8(ascii: "["):
      levels.append(.array(pathCount: path.count, index: 0))
      path.append(WritableMemberKey(lastKey))
    case UInt8(ascii: ","):
      if case let .array(count, index) = levels.last {
        levels[levels.count - 1] = .array(pathCount: count, index: index + 1)
      }
    default:
      restore(levels.popLast())
    }
  }

  func _string(_ value: String) throws {}
  func _bool(_ value: Bool) {}
  func _signed(_ value: Int64) {}
  func _unsigned(_ value: UInt64) {}
  func _double(_ value: Double) throws {}
  func _float(_ value: Float) throws {}

  func _encodable<T: Encodable>(_ value: T, key: StaticString) throws {
    guard muted == 0 else { return }
    if let writable = T.self as? any _JournalJSONWritable.Type {
      try write(value, as: writable)
    } else {
      try Self.walkThroughEncodable(value, at: path + [WritableMemberKey(key)], userInfo: userInfo)
    }
  }
}
