/// JSON text indexed in place: one node per value holding its byte range, the node after its
/// subtree and, for an object's member, where its key starts. Nothing is copied or decoded, so
/// looking through a snapshot's state costs 16 bytes a value instead of a tree of strings and
/// arrays (see ``StateStacks``).
///
/// Made only from text ``JSONText/storageProblem(_:)`` accepted: valid, nested within bounds,
/// shorter than 4 GiB.
struct JSONTape {
  struct Node {
    /// The value's first byte.
    var start: UInt32
    /// The byte after the value.
    var end: UInt32
    /// The index of the node after this value's subtree.
    var next: UInt32
    /// Where the member's key (its opening quote) starts; `UInt32.max` outside an object.
    var key: UInt32
  }

  let bytes: [UInt8]
  private(set) var nodes: [Node] = []

  /// Indexes JSON text; `nil` when it is not JSON or too long to index.
  init?(_ text: String) {
    bytes = Array(text.utf8)
    guard bytes.count < Int(UInt32.max), JSONText.nesting(of: bytes) <= JSONText.maximumNesting
    else { return nil }
    var scanner = JSONScanner(bytes: bytes)
    guard index(&scanner, key: .max) else { return nil }
    scanner.skipWhitespace()
    guard scanner.isAtEnd else { return nil }
  }

  /// The first byte of a node's value.
  func first(_ node: Int) -> UInt8 { bytes[Int(nodes[node].start)] }

  /// The nodes of an array's elements or an object's members' values.
  func children(_ node: Int) -> [Int] {
    var result: [Int] = []
    var child = node + 1
    while child < Int(nodes[node].next) {
      result.append(child)
      child = Int(nodes[child].next)
    }
    return result
  }

  /// The key of an object's member.
  func key(_ node: Int) -> String? {
    let start = Int(nodes[node].key)
    guard start != Int(UInt32.max) else { return nil }
    var scanner = JSONScanner(bytes: bytes[start...])
    return scanner.string()
  }

  /// The members of an object, keys decoded, in the order written; `nil` for another value.
  func members(_ node: Int) -> [(key: String, node: Int)]? {
    guard first(node) == UInt8(ascii: "{") else { return nil }
    return children(node).map { (key($0) ?? "", $0) }
  }

  /// The value of an object's last member named `name`.
  func member(_ name: String, in members: [(key: String, node: Int)]) -> Int? {
    members.last { $0.key == name }?.node
  }

  /// A number as a 64-bit integer, when the node is one.
  func int64(_ node: Int) -> Int64? {
    guard first(node) != UInt8(ascii: "\"") else { return nil }
    let range = Int(nodes[node].start)..<Int(nodes[node].end)
    return JSONValue.number(String(decoding: bytes[range], as: UTF8.self)).int64
  }

  /// Where a node's value lies in ``bytes``.
  func range(_ node: Int) -> Range<Int> {
    Int(nodes[node].start)..<Int(nodes[node].end)
  }

  /// The bytes of a node's value, as written.
  func text(_ node: Int) -> ArraySlice<UInt8> {
    bytes[Int(nodes[node].start)..<Int(nodes[node].end)]
  }

  private mutating func index(_ scanner: inout JSONScanner<[UInt8]>, key: UInt32) -> Bool {
    scanner.skipWhitespace()
    guard let first = scanner.current else { return false }
    let position = nodes.count
    nodes.append(Node(start: UInt32(scanner.offset), end: 0, next: 0, key: key))
    switch first {
    case UInt8(ascii: "{"):
      scanner.offset += 1
      scanner.skipWhitespace()
      if !scanner.consume(UInt8(ascii: "}")) {
        while true {
          scanner.skipWhitespace()
          let keyStart = UInt32(scanner.offset)
          guard scanner.skipString() != nil else { return false }
          scanner.skipWhitespace()
          guard scanner.consume(UInt8(ascii: ":")), index(&scanner, key: keyStart) else {
            return false
          }
          scanner.skipWhitespace()
          if scanner.consume(UInt8(ascii: ",")) { continue }
          guard scanner.consume(UInt8(ascii: "}")) else { return false }
          break
        }
      }
    case UInt8(ascii: "["):
      scanner.offset += 1
      scanner.skipWhitespace()
      if !scanner.consume(UInt8(ascii: "]")) {
        while true {
          guard index(&scanner, key: .max) else { return false }
          scanner.skipWhitespace()
          if scanner.consume(UInt8(ascii: ",")) { continue }
          guard scanner.consume(UInt8(ascii: "]")) else { return false }
          break
        }
      }
    default:
      guard scanner.skipValue() else { return false }
    }
    nodes[position].end = UInt32(scanner.offset)
    nodes[position].next = UInt32(nodes.count)
    return true
  }
}
