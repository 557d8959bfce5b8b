import Foundation
import StackNavigation

/// Walks a ``_JournalJSONWritable`` value for the stacks in it through its writer instead of its
/// `Encodable`: the members the writer writes itself (strings, numbers, arrays of them, writable
/// values) hold no stack and cost nothing here; every other member is walked through
/// ``CodingPathEncoder`` at the coding path its `Encodable` would give it.
///
/// Only cases found to agree with their type's `Encodable` (``WritableChecks``, which checks a
/// case met for the first time) are walked this way: meeting one that differs throws
/// ``Refused``, and the walk starts again through `Encodable`.
final class WritableWalk: _JournalJSONOutput {
  /// Thrown on a type or case the walk may not trust.
  struct Refused: Error {}

  private enum Level {
    case object(pathCount: Int)
    case array(pathCount: Int, index: Int)
  }

  private var path: [any CodingKey]
  private let userInfo: [CodingUserInfoKey: Any]
  private var levels: [Level] = []
  private var lastKey: StaticString = ""

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
      try WritableWalk(codingPath: codingPath, userInfo: userInfo).walk(value, as: writable)
    } else {
      try value.encode(to: CodingPathEncoder(codingPath: codingPath, userInfo: userInfo))
    }
  }

  private func walk<T, W: _JournalJSONWritable>(_ value: T, as type: W.Type) throws {
    var json = _JournalJSON(output: self)
    try withUnsafePointer(to: value) { pointer in
      try pointer.withMemoryRebound(to: W.self, capacity: 1) {
        try $0.pointee._writeJournalJSON(to: &json)
      }
    }
  }

  private func check<T>(_ value: T, _ index: Int) throws {
    let key = WritableChecks.Case(type: ObjectIdentifier(T.self), index: index)
    guard WritableChecks.shared.agrees(value, key, checking: []) else { throw Refused() }
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
    try check(value, index)
    open()
    path.append(WritableMemberKey(name))
  }

  func _openObject<T>(_ value: T) throws {
    try check(value, 0)
    open()
  }

  func _close(case: Bool) {
    restore(levels.popLast())
  }

  func _key(_ key: StaticString) {
    lastKey = key
  }

  func _raw(_ text: StaticString) {
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
    if let writable = T.self as? any _JournalJSONWritable.Type {
      try walk(value, as: writable)
    } else {
      try value.encode(
        to: CodingPathEncoder(codingPath: path + [WritableMemberKey(key)], userInfo: userInfo))
    }
  }
}
