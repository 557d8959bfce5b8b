import Foundation
import StackNavigation

/// The bytes written so far, the containers still open (innermost last) and the coding path to
/// the current position.
///
/// A container is written only while it is open: writing to one closes those opened after it,
/// and a write to a closed one throws. The coding path is a stack of the keys of the values
/// being written: an encoder's `codingPath` is its first `pathCount` keys, read while it is
/// open. As in `JSONEncoder`, a value's path is its encoder's and its own key, leaving out the
/// keys of the nested containers between them; a nested container's own path has them.
final class JSONSink {
  struct Frame {
    let id: Int
    let isObject: Bool
    var count = 0
    /// Where an object's members start in `members`.
    let firstMember: Int
    /// Whether the object's keys were written in ascending order so far.
    var ascending = true
  }

  // Unchecked: a value's encoding runs on one thread, and the dynamic exclusivity check of each
  // write was a tenth of the encoder's cost.
  @exclusivity(unchecked) var writer = StorageJSON.Writer()
  @exclusivity(unchecked) var frames: [Frame] = []
  @exclusivity(unchecked) var path: [any CodingKey] = []
  /// The keys of the open objects' members and where each member starts, in the order written,
  /// the innermost object's last: one array for all of them, not one per object.
  @exclusivity(unchecked) var members: [(key: String, start: Int)] = []
  /// Whether a container or super-encoder was asked for that cannot be written as `JSONEncoder`
  /// would (asking cannot throw).
  var refused = false
  /// Told when a stack, or a route of an array, is encoded: the encoders' `userInfo` carries it.
  let encounter = StackEncounter()
  private(set) lazy var userInfo: [CodingUserInfoKey: Any] = [stackEncounterUserInfoKey: encounter]
  /// The key of the outermost value's only member, once that value is closed and is an object of
  /// one member (an enum case's, as a synthesized encoding writes it).
  var onlyKey: String?
  /// How many containers were opened: the last one's ID.
  private(set) var openedContainers = 0
  /// Whether a ``_JournalJSONWritable`` value writes itself (``writeValue(_:pathCount:key:)``);
  /// false to write every value through `Encodable`.
  let allowsWritable: Bool
  /// How many objects opened by writable values are open, and whether the next of their members
  /// needs a comma before it.
  var writableDepth = 0
  var writableNeedsComma = false
  /// The members of the outermost value, when a writable struct wrote it: for ``onlyKey``.
  var outermostMembers = 0
  var outermostFirstKey: StaticString?
  /// The cases being checked against their `Encodable` (see ``WritableChecks``), trusted here.
  let checking: Set<WritableChecks.Case>
  /// Whether a writable value was met.
  var metWritable = false
  private var lastNotWritable: ObjectIdentifier?

  init(allowsWritable: Bool = true, checking: Set<WritableChecks.Case> = []) {
    self.allowsWritable = allowsWritable
    self.checking = checking
    // Room for a value a few levels deep, so that most encodings do not grow these arrays one
    // reallocation at a time from empty.
    frames.reserveCapacity(8)
    path.reserveCapacity(8)
    members.reserveCapacity(16)
  }

  /// Writes a value at the current position, for the encoder whose path is `pathCount` long,
  /// under `key`.
  func write<T: Encodable>(_ value: T, pathCount: Int, key: (any CodingKey)?) throws {
    guard !Self.isTreatedApart(T.self), path.count == pathCount else {
      throw NotLikeJSONEncoder()
    }
    let depth = frames.count
    if let key { path.append(key) }
    let start = writer.bytes.count
    try value.encode(to: ValueEncoder(sink: self, start: start, pathCount: path.count))
    try close(above: depth)
    // One at a time: removing a range goes through `replaceSubrange`, generic over the
    // collection inserted.
    while path.count > pathCount { path.removeLast() }
    // `JSONEncoder` writes `{}` for a nested value that wrote nothing and refuses one at the top.
    guard writer.bytes.count > start else { throw NotLikeJSONEncoder() }
  }

  /// Writes a value at the current position as ``write(_:pathCount:key:)`` does, unless it is
  /// ``_JournalJSONWritable``: then it writes itself.
  ///
  /// Values written through `Encodable` come here too, so that a writable value nested in one
  /// (a stack's element) writes itself. The last type found not writable is remembered: an
  /// array asks again for each element.
  func writeValue<T: Encodable>(_ value: T, pathCount: Int, key: (any CodingKey)?) throws {
    if allowsWritable, lastNotWritable != ObjectIdentifier(T.self) {
      if let writable = T.self as? any _JournalJSONWritable.Type {
        metWritable = true
        try write(value, as: writable)
        return
      }
      lastNotWritable = ObjectIdentifier(T.self)
    }
    try write(value, pathCount: pathCount, key: key)
  }

  /// Types `JSONEncoder` writes otherwise than their own `encode(to:)` does. A `Date` is not one
  /// of them: under the journal's encoder's strategy (`.deferredToDate`) `JSONEncoder` writes it
  /// through its `encode(to:)`, its seconds since the reference date — what a state holding the
  /// dates its reducer drew from `\.date` writes on every change.
  static func isTreatedApart(_ type: Any.Type) -> Bool {
    type == Data.self || type == URL.self || type == Decimal.self
  }

  func codingPath(_ count: Int) -> [any CodingKey] { Array(path.prefix(count)) }

  /// Whether the value starting at `start` may still be written: nothing was written since.
  /// Marks the encoding refused when not.
  func claim(_ start: Int) -> Bool {
    if writer.bytes.count == start { return true }
    refuse()
    return false
  }

  /// Marks the encoding refused and returns 0, the ID of no frame.
  @discardableResult func refuse() -> Int {
    refused = true
    return 0
  }

  /// Opens an object or an array at the current position and returns its frame's ID.
  func open(object: Bool) -> Int {
    openedContainers += 1
    writer.bytes.append(UInt8(ascii: object ? "{" : "["))
    frames.append(Frame(id: openedContainers, isObject: object, firstMember: members.count))
    return openedContainers
  }

  /// Makes the frame `id` at `depth` the innermost, closing those opened after it; throws when it
  /// was closed already (or `id` is 0: a container that was refused).
  func enter(_ id: Int, depth: Int) throws {
    guard id != 0, frames.indices.contains(depth), frames[depth].id == id else {
      throw NotLikeJSONEncoder()
    }
    try close(above: depth + 1)
  }

  /// Starts the next member of the object at `depth`.
  func member(_ key: String, depth: Int) throws {
    element(depth: depth)
    let start = writer.bytes.count
    guard writer.string(key) else { throw NotLikeJSONEncoder() }
    writer.bytes.append(UInt8(ascii: ":"))
    // Keys are ASCII here, where `<` on strings is byte order, the order `JSONEncoder` sorts in.
    if frames[depth].ascending, members.count > frames[depth].firstMember,
      !(members[members.count - 1].key < key)
    {
      frames[depth].ascending = false
    }
    members.append((key, start))
  }

  /// Starts the next element of the container at `depth`, after a comma unless it is the first,
  /// and returns its index.
  @discardableResult func element(depth: Int) -> Int {
    if frames[depth].count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
    frames[depth].count += 1
    return frames[depth].count - 1
  }

  /// Closes the frames from `depth` on, sorting each object's members by key.
  func close(above depth: Int) throws {
    while frames.count > depth {
      let frame = frames.removeLast()
      if frame.isObject {
        if !frame.ascending { try sortMembers(from: frame.firstMember) }
        if frames.isEmpty, writableDepth == 0, frame.count == 1 {
          onlyKey = members[frame.firstMember].key
        }
        while members.count > frame.firstMember { members.removeLast() }
        writer.bytes.append(UInt8(ascii: "}"))
      } else {
        writer.bytes.append(UInt8(ascii: "]"))
      }
    }
  }

  /// Rewrites an object's members, `members[first...]`, which run to the end of the bytes, in
  /// the order of their keys (byte order, as `JSONEncoder` sorts).
  ///
  /// In place and through temporary buffers: the members reordered, commas between them, take
  /// the bytes they took. Arrays of the members' keys and ranges, built for each object written
  /// out of order (every object of a type whose properties are not declared in key order),
  /// cost more than the sorting.
  private func sortMembers(from first: Int) throws {
    let count = members.count - first
    guard count > 1 else { return }
    let start = members[first].start
    let end = writer.bytes.count
    try withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { order in
      // The members' positions sorted by key; the keys are ASCII (see `member`), where `<` on
      // strings is byte order. An insertion sort for the few members of a struct; a
      // dictionary's thousands of keys, in hash order, go through `sort`.
      if count <= 32 {
        for position in 0..<count {
          var slot = position
          while slot > 0, members[first + position].key < members[first + order[slot - 1]].key {
            order[slot] = order[slot - 1]
            slot -= 1
          }
          order[slot] = position
        }
      } else {
        var positions = order
        for position in 0..<count { positions[position] = position }
        positions.sort { members[first + $0].key < members[first + $1].key }
      }
      // A key written twice: `JSONEncoder` keeps the last value.
      for slot in 1..<count
      where members[first + order[slot - 1]].key == members[first + order[slot]].key {
        throw NotLikeJSONEncoder()
      }
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - start) { rewritten in
        var index = 0
        writer.bytes.withUnsafeBufferPointer { bytes in
          for slot in 0..<count {
            if slot > 0 {
              rewritten[index] = UInt8(ascii: ",")
              index += 1
            }
            // The member's bytes, without the comma after it.
            let position = order[slot]
            let from = members[first + position].start
            let to = position + 1 < count ? members[first + position + 1].start - 1 : end
            (rewritten.baseAddress! + index).initialize(
              from: bytes.baseAddress! + from, count: to - from)
            index += to - from
          }
        }
        writer.bytes.withUnsafeMutableBufferPointer { bytes in
          (bytes.baseAddress! + start).update(from: rewritten.baseAddress!, count: index)
        }
      }
    }
  }

  func writeNumber(_ double: Double) throws {
    guard double.isFinite else { throw NotLikeJSONEncoder() }
    writeTrimmed(double.description)
  }

  func writeNumber(_ float: Float) throws {
    guard float.isFinite else { throw NotLikeJSONEncoder() }
    writeTrimmed(float.description)
  }

  /// A number's description without a trailing `.0`, as `JSONEncoder` writes it.
  private func writeTrimmed(_ description: String) {
    let utf8 = description.utf8
    if utf8.count > 2, utf8.last == UInt8(ascii: "0"),
      utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".")
    {
      writer.bytes.append(contentsOf: utf8.dropLast(2))
    } else {
      writer.bytes.append(contentsOf: utf8)
    }
  }

  func writeBool(_ value: Bool) {
    writer.raw(value ? "true" : "false")
  }

  func writeNull() {
    writer.raw("null")
  }
}
