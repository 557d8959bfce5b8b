import Foundation
import StackNavigation

/// JSON text of the storage's own values (deltas, stack lists), keys sorted.
///
/// Deltas and stack lists, written with every append and snapshot, are written by hand: byte for
/// byte what `JSONEncoder` writes with sorted keys and unescaped slashes (a test compares the
/// two on random values), at a fraction of its cost. `JSONEncoder` boxes every value it writes,
/// so a delta listing the 50 IDs of a deep stack cost more to encode than the SQLite statements
/// that store it.
package enum StorageJSON {
  /// A delta's JSON: `{"changes":[…]}`.
  package static func text(_ delta: StackDelta) -> String {
    var writer = Writer(capacity: estimatedLength(delta))
    writer.raw("{\"changes\":[")
    for (index, change) in delta.changes.enumerated() {
      if index > 0 { writer.raw(",") }
      writer.raw("{\"changed\":")
      writer.elements(change.changed)
      writer.raw(",\"ids\":")
      writer.ids(change.ids)
      writer.raw(",\"nextID\":")
      writer.integer(change.nextID.generation)
      writer.raw(",\"path\":")
      writer.string(change.path)
      writer.raw(",\"popped\":")
      writer.ids(change.popped)
      if change.isPresentation { writer.raw(",\"presentation\":true") }
      writer.raw(",\"pushed\":")
      writer.elements(change.pushed)
      writer.raw(change.removed ? ",\"removed\":true}" : ",\"removed\":false}")
    }
    writer.raw("]}")
    return writer.text
  }

  /// About the length of a delta's JSON, to reserve once: growing the buffer from a few hundred
  /// bytes to hold the elements' JSON copied it more than once per append.
  private static func estimatedLength(_ delta: StackDelta) -> Int {
    var length = 16
    for change in delta.changes {
      length += 96 + change.path.utf8.count + 8 * (change.ids.count + change.popped.count)
      length += estimatedLength(change.pushed) + estimatedLength(change.changed)
    }
    return length
  }

  /// About the length of elements' JSON: a quote every few bytes of an element's JSON takes an
  /// escape.
  private static func estimatedLength(_ elements: [StoredElement]) -> Int {
    var length = 0
    for element in elements {
      length += 48 + (element.caseName?.utf8.count ?? 0) + element.state.utf8.count * 5 / 4
    }
    return length
  }

  /// A list of stacks' JSON: `[{"elements":[…],"nextID":…,"path":…}, …]`.
  package static func text(_ stacks: [StackRecord]) -> String {
    var writer = Writer()
    writer.raw("[")
    for (index, stack) in stacks.enumerated() {
      if index > 0 { writer.raw(",") }
      writer.raw("{\"elements\":")
      writer.elements(stack.elements)
      writer.raw(",\"nextID\":")
      writer.integer(stack.nextID.generation)
      writer.raw(",\"path\":")
      writer.string(stack.path)
      writer.raw(stack.isPresentation ? ",\"presentation\":true}" : "}")
    }
    writer.raw("]")
    return writer.text
  }

  /// Appends JSON to a byte buffer.
  struct Writer: ~Copyable {
    var bytes: ByteBuffer

    init(capacity: Int = 512) {
      bytes = ByteBuffer(capacity: capacity)
    }

    var text: String { bytes.text }

    mutating func raw(_ text: StaticString) {
      text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func integer(_ value: some BinaryInteger) {
      guard let value = Int(exactly: value) else {
        bytes.append(contentsOf: value.description.utf8)
        return
      }
      // Digit by digit: a generic integer's `description` costs hundreds of instructions, and a
      // delta writes every ID of each stack it changes.
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      bytes.appendDecimal(value.magnitude)
    }

    mutating func ids(_ ids: [StackElementID]) {
      bytes.append(UInt8(ascii: "["))
      for (index, id) in ids.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        integer(id.generation)
      }
      bytes.append(UInt8(ascii: "]"))
    }

    mutating func elements(_ elements: [StoredElement]) {
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "{"))
        if let caseName = element.caseName {
          raw("\"caseName\":")
          string(caseName)
          bytes.append(UInt8(ascii: ","))
        }
        raw("\"id\":")
        integer(element.id.generation)
        raw(",\"state\":")
        string(element.state)
        bytes.append(UInt8(ascii: "}"))
      }
      bytes.append(UInt8(ascii: "]"))
    }

    /// A string literal, escaped as `JSONEncoder` escapes: `"` and `\`, the short escapes
    /// `\b \t \n \f \r`, other control characters as `\u00xx`; everything else as it is.
    /// Returns whether the string is ASCII.
    ///
    /// One pass counts what needs an escape; a string with none is copied whole, and one with
    /// some (a stack element's JSON inside a delta, a quote every few bytes) is written escaped
    /// into a buffer appended once, instead of one append per run between escapes. Both passes
    /// read eight bytes at a time (see ``escapeMask(_:)``): a changed element's JSON, escaped
    /// into every delta, is hundreds of bytes.
    @discardableResult
    mutating func string(_ value: String) -> Bool {
      var value = value
      return value.withUTF8 { utf8 in
        let (extra, isASCII) = Self.scan(utf8)
        bytes.append(UInt8(ascii: "\""))
        if extra == 0 {
          bytes.append(contentsOf: utf8)
        } else {
          withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count + extra) { out in
            let count = Self.writeEscaped(utf8, into: out)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: out[..<count]))
          }
        }
        bytes.append(UInt8(ascii: "\""))
        return isASCII
      }
    }

    /// How many bytes the escapes of `utf8` add, and whether it is ASCII.
    private static func scan(_ utf8: UnsafeBufferPointer<UInt8>) -> (extra: Int, isASCII: Bool) {
      guard let base = utf8.baseAddress else { return (0, true) }
      var high: UInt64 = 0
      var extra = 0
      var offset = 0
      while offset + 8 <= utf8.count {
        let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        high |= word
        if escapeMask(word) != 0 {
          // A quote's or backslash's escape adds one byte; a control character's, one or five.
          extra += quoteMask(word).nonzeroBitCount
          if controlMask(word) != 0 {
            for byte in UnsafeBufferPointer(start: base + offset, count: 8) where byte < 0x20 {
              extra += escapedLength(byte) - 1
            }
          }
        }
        offset += 8
      }
      var last: UInt8 = 0
      for byte in UnsafeBufferPointer(rebasing: utf8[offset...]) {
        last |= byte
        if needsEscape(byte) { extra += escapedLength(byte) - 1 }
      }
      return (extra, high & highBits == 0 && last < 0x80)
    }

    /// Writes `utf8` escaped into `out`, which holds its escaped length, and returns that length.
    private static func writeEscaped(
      _ utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
      guard let base = utf8.baseAddress, let target = out.baseAddress else { return 0 }
      var offset = 0
      var index = 0
      while offset + 8 <= utf8.count {
        let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        // The word is written whole and kept up to its first byte that needs an escape. It
        // fits: the input from `offset` on, eight bytes or more, is as long escaped or longer.
        UnsafeMutableRawPointer(target + index).storeBytes(of: word, as: UInt64.self)
        // In memory order: the first byte is the lowest.
        let mask = escapeMask(UInt64(littleEndian: word))
        if mask == 0 {
          offset += 8
          index += 8
          continue
        }
        let run = mask.trailingZeroBitCount / 8
        offset += run
        index = escape(base[offset], into: out, at: index + run)
        offset += 1
      }
      while offset < utf8.count {
        let byte = base[offset]
        if needsEscape(byte) {
          index = escape(byte, into: out, at: index)
        } else {
          out[index] = byte
          index += 1
        }
        offset += 1
      }
      return index
    }

    private static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// A word whose eight bytes are `byte`.
    private static func repeated(_ byte: UInt8) -> UInt64 {
      0x0101_0101_0101_0101 &* UInt64(byte)
    }

    /// The high bit of each byte of `word` that is 0, and no other bit. Exact: adding 0x7F to a
    /// byte's low seven bits carries into its own high bit only, never into the next byte.
    private static func zeroMask(_ word: UInt64) -> UInt64 {
      ~(((word & lowBits) &+ lowBits) | word) & highBits
    }

    /// The high bit of each byte of `word` below 0x20, and no other bit (exact, as above).
    private static func controlMask(_ word: UInt64) -> UInt64 {
      ~(((word & lowBits) &+ repeated(0x60)) | word) & highBits
    }

    /// The high bit of each byte of `word` that is a quote or a backslash, and no other bit.
    private static func quoteMask(_ word: UInt64) -> UInt64 {
      zeroMask(word ^ repeated(UInt8(ascii: "\""))) | zeroMask(word ^ repeated(UInt8(ascii: "\\")))
    }

    /// The high bit of each byte of `word` that ``needsEscape(_:)``, and no other bit.
    private static func escapeMask(_ word: UInt64) -> UInt64 {
      controlMask(word) | quoteMask(word)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
      byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The letter of a byte's short escape (`\n` …), or nil for one written `\u00xx`.
    private static func shortEscape(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "\""): UInt8(ascii: "\"")
      case UInt8(ascii: "\\"): UInt8(ascii: "\\")
      case 0x08: UInt8(ascii: "b")
      case 0x09: UInt8(ascii: "t")
      case 0x0A: UInt8(ascii: "n")
      case 0x0C: UInt8(ascii: "f")
      case 0x0D: UInt8(ascii: "r")
      default: nil
      }
    }

    /// The length of a byte's escape.
    private static func escapedLength(_ byte: UInt8) -> Int {
      shortEscape(byte) == nil ? 6 : 2
    }

    /// Writes a byte's escape at `index` and returns the index after it.
    private static func escape(
      _ byte: UInt8, into out: UnsafeMutableBufferPointer<UInt8>, at index: Int
    ) -> Int {
      out[index] = UInt8(ascii: "\\")
      if let short = shortEscape(byte) {
        out[index + 1] = short
        return index + 2
      }
      out[index + 1] = UInt8(ascii: "u")
      out[index + 2] = UInt8(ascii: "0")
      out[index + 3] = UInt8(ascii: "0")
      out[index + 4] = hexDigits[Int(byte >> 4)]
      out[index + 5] = hexDigits[Int(byte & 0x0F)]
      return index + 6
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
  }
}
