import Foundation
import StackNavigation

extension StackRecord {
  /// Reads a list of stacks from the JSON a journal stores them as (``StorageJSON``), or `nil`
  /// when it is not one.
  ///
  /// Reads the text in one pass into the records and nothing else: Foundation's decoder first
  /// builds a map of the whole text, three times its size, which made checking a snapshot of
  /// one stack of 80,000 elements cost 23 MB more than its records. Text of another shape than
  /// the one stored (members it does not know, IDs written as `1.0`) is left to that decoder.
  package static func list(fromJSON text: String) -> [StackRecord]? {
    var text = text
    let records = text.withUTF8 { bytes in
      var reader = StackListReader(bytes: bytes)
      return reader.read()
    }
    if let records { return records }
    return try? JSONDecoder().decode([StackRecord].self, from: Data(text.utf8))
  }
}

/// Reads `[{"elements":[{"caseName":…,"id":…,"state":…},…],"nextID":…,"path":…},…]`, a
/// presentation's record ending in `"presentation":true`.
private struct StackListReader {
  var scanner: JSONScanner<UnsafeBufferPointer<UInt8>>

  init(bytes: UnsafeBufferPointer<UInt8>) {
    scanner = JSONScanner(bytes: bytes)
  }

  mutating func read() -> [StackRecord]? {
    var records: [StackRecord] = []
    guard array({ records.append(contentsOf: $0.stack().map { [$0] } ?? []) }) != nil else {
      return nil
    }
    scanner.skipWhitespace()
    return scanner.isAtEnd ? records : nil
  }

  /// Reads an array, calling `element` for each; the count, or `nil` when malformed or when
  /// `element` did not read a value.
  private mutating func array(_ element: (inout StackListReader) -> Void) -> Int? {
    scanner.skipWhitespace()
    guard scanner.consume(UInt8(ascii: "[")) else { return nil }
    scanner.skipWhitespace()
    if scanner.consume(UInt8(ascii: "]")) { return 0 }
    var count = 0
    while true {
      let before = scanner.offset
      element(&self)
      guard scanner.offset > before else { return nil }
      count += 1
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: ",")) { continue }
      return scanner.consume(UInt8(ascii: "]")) ? count : nil
    }
  }

  /// Reads an object's members, calling `member` with each key; `member` returns whether it
  /// read the value. `false` when malformed.
  private mutating func object(_ member: (inout StackListReader, String) -> Bool) -> Bool {
    scanner.skipWhitespace()
    guard scanner.consume(UInt8(ascii: "{")) else { return false }
    scanner.skipWhitespace()
    if scanner.consume(UInt8(ascii: "}")) { return true }
    while true {
      scanner.skipWhitespace()
      guard let key = scanner.string() else { return false }
      scanner.skipWhitespace()
      guard scanner.consume(UInt8(ascii: ":")) else { return false }
      scanner.skipWhitespace()
      guard member(&self, key) else { return false }
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: ",")) { continue }
      return scanner.consume(UInt8(ascii: "}"))
    }
  }

  /// A stack; on `nil` the scanner has not moved past a whole value, so the caller fails.
  private mutating func stack() -> StackRecord? {
    let start = scanner.offset
    var path: String?
    var nextID: StackElementID?
    var elements: [StoredElement]?
    var isPresentation = false
    let read = object { reader, key in
      switch key {
      case "path": path = reader.string()
      case "nextID": nextID = reader.id()
      case "elements":
        var list: [StoredElement] = []
        let count = reader.array { reader in
          if let element = reader.element() { list.append(element) } else { reader.fail() }
        }
        elements = count == nil ? nil : list
        return count != nil
      case "presentation":
        isPresentation = reader.scanner.literal("true")
        return isPresentation
      default: return false
      }
      return key == "path" ? path != nil : nextID != nil
    }
    guard read, let path, let nextID, let elements else {
      scanner.offset = start
      return nil
    }
    return StackRecord(
      path: path, nextID: nextID, elements: elements, isPresentation: isPresentation)
  }

  private mutating func element() -> StoredElement? {
    var id: StackElementID?
    var caseName: String??
    var state: String?
    let read = object { reader, key in
      switch key {
      case "id":
        id = reader.id()
        return id != nil
      case "caseName":
        if reader.scanner.literal("null") {
          caseName = .some(nil)
        } else {
          caseName = reader.string().map { .some($0) }
        }
        return caseName != nil
      case "state":
        state = reader.string()
        return state != nil
      default: return false
      }
    }
    guard read, let id, let state else { return nil }
    return StoredElement(id: id, caseName: caseName ?? nil, state: state)
  }

  /// Moves the scanner back so the array that called fails.
  private mutating func fail() {
    scanner.offset = scanner.bytes.endIndex + 1
  }

  private mutating func string() -> String? {
    guard scanner.current == UInt8(ascii: "\"") else { return nil }
    return scanner.string()
  }

  /// An ID: a plain non-negative integer no greater than the largest next ID.
  private mutating func id() -> StackElementID? {
    let start = scanner.offset
    while let byte = scanner.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      scanner.offset += 1
    }
    let digits = scanner.offset - start
    guard digits > 0, digits < 19, digits == 1 || scanner.bytes[start] != UInt8(ascii: "0"),
      let value = Int(String(decoding: scanner.bytes[start..<scanner.offset], as: UTF8.self)),
      value <= StackElementID.largest.generation + 1
    else { return nil }
    return StackElementID(generation: value)
  }
}
