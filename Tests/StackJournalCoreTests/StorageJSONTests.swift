// The hand-written JSON of deltas and stack lists is byte for byte what JSONEncoder writes with
// sorted keys and unescaped slashes, on random values whose strings hold every kind of character
// JSON escapes or keeps.
import Foundation
import StackJournalDemo
import StackNavigation
import Testing

@testable import StackJournalCore

@Suite struct StorageJSONTests {
  static func encoderText<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// Characters JSON escapes, or that a writer could get wrong.
  static let alphabet: [Character] =
    (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }
    + ["\"", "\\", "/", "\u{7F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "é", "😀", "👩‍👩‍👧", "a", "Z", "0", " ", "{", "}", ":", ","]

  static func string(_ generator: inout SeededGenerator) -> String {
    String((0..<Int.random(in: 0...12, using: &generator)).map { _ in
      alphabet.randomElement(using: &generator)!
    })
  }

  static func elements(_ generator: inout SeededGenerator) -> [StoredElement] {
    (0..<Int.random(in: 0...3, using: &generator)).map { _ in
      StoredElement(
        id: StackElementID(generation: Int.random(in: 0...(1 << 53), using: &generator)),
        caseName: Bool.random(using: &generator) ? nil : string(&generator),
        state: string(&generator))
    }
  }

  static func ids(_ generator: inout SeededGenerator) -> [StackElementID] {
    (0..<Int.random(in: 0...60, using: &generator)).map { _ in
      StackElementID(generation: Int.random(in: 0...100_000, using: &generator))
    }
  }

  @Test(arguments: 1...400)
  func aDeltaIsWrittenAsJSONEncoderWritesIt(seed: Int) throws {
    var generator = SeededGenerator(seed: UInt64(seed))
    let delta = StackDelta(changes: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
      StackChange(
        path: Self.string(&generator),
        nextID: StackElementID(generation: Int.random(in: 0...(1 << 53), using: &generator)),
        ids: Self.ids(&generator), pushed: Self.elements(&generator),
        popped: Self.ids(&generator), changed: Self.elements(&generator),
        removed: Bool.random(using: &generator))
    })
    let text = StorageJSON.text(delta)
    #expect(text == (try Self.encoderText(delta)))
    #expect(try JSONDecoder().decode(StackDelta.self, from: Data(text.utf8)) == delta)
  }

  @Test(arguments: 1...400)
  func aStackListIsWrittenAsJSONEncoderWritesIt(seed: Int) throws {
    var generator = SeededGenerator(seed: UInt64(seed))
    let stacks = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
      StackRecord(
        path: Self.string(&generator),
        nextID: StackElementID(generation: Int.random(in: 0...(1 << 53), using: &generator)),
        elements: Self.elements(&generator))
    }
    let text = StorageJSON.text(stacks)
    #expect(text == (try Self.encoderText(stacks)))
    #expect(try JSONDecoder().decode([StackRecord].self, from: Data(text.utf8)) == stacks)
  }

  /// Strings long enough to be read eight bytes at a time, with characters that need an
  /// escape at any place in a word, or none, are written as JSONEncoder writes them.
  @Test(arguments: 1...400)
  func aLongStringIsWrittenAsJSONEncoderWritesIt(seed: Int) throws {
    var generator = SeededGenerator(seed: UInt64(seed))
    let plain: [Character] = ["a", "Z", "0", " ", "{", ":", "/", "\u{7F}"]
    let escapes = seed % 4
    let text = String((0..<Int.random(in: 0...80, using: &generator)).map { _ in
      Int.random(in: 0..<8, using: &generator) < escapes
        ? Self.alphabet.randomElement(using: &generator)!
        : plain.randomElement(using: &generator)!
    })
    var writer = StorageJSON.Writer()
    let isASCII = writer.string(text)
    #expect(writer.text == (try Self.encoderText(text)))
    #expect(isASCII == text.utf8.allSatisfy { $0 < 0x80 })
  }

  @Test func escapesThatOutgrowTheBufferAreWrittenWhole() throws {
    // Control characters take six bytes escaped: a writer with little room grows while it
    // escapes, in words and in the tail alike.
    for length in [1, 7, 8, 9, 63, 64, 65, 1_000] {
      for unit in ["\u{01}", "\"", "a\u{1F}\\", "é\u{0}"] {
        let text = String(repeating: unit, count: length)
        var writer = StorageJSON.Writer(capacity: 0)
        writer.string(text)
        let written = writer.text
        #expect(written == (try Self.encoderText(text)), "\(length) × \(unit.debugDescription)")
      }
    }
  }

  @Test func integersAreWrittenDigitByDigit() {
    let values: [Int] = [0, 1, 9, 10, 11, 99, 100, 101, 12_345, 1 << 40, .max, -1, -10, .min]
    for value in values {
      var writer = StorageJSON.Writer(capacity: 0)
      writer.integer(value)
      let written = writer.text
      #expect(written == String(value))
    }
    var writer = StorageJSON.Writer(capacity: 0)
    writer.integer(UInt64.max)
    writer.integer(Int8.min)
    let written = writer.text
    #expect(written == "\(UInt64.max)\(Int8.min)")
  }

  @Test func aByteBufferKeepsEveryByteAsItGrows() {
    // From a buffer of 16 bytes to one of tens of kilobytes, through each way of appending:
    // a byte, a buffer, an array (contiguous) and a range (a sequence without storage).
    var buffer = ByteBuffer(capacity: 1)
    var expected: [UInt8] = []
    for step in 0..<3_000 {
      switch step % 4 {
      case 0:
        buffer.append(UInt8(step % 251))
        expected.append(UInt8(step % 251))
      case 1:
        let chunk = (0..<step % 37).map { UInt8(($0 + step) % 256) }
        chunk.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        expected += chunk
      case 2:
        let chunk = [UInt8](repeating: UInt8(step % 97), count: step % 53)
        buffer.append(contentsOf: chunk)
        expected += chunk
      default:
        buffer.append(contentsOf: UInt8(0)..<UInt8(step % 13))
        expected += UInt8(0)..<UInt8(step % 13)
      }
    }
    // (`#expect` cannot take a noncopyable value apart: the figures are read first.)
    let (count, bytes) = (buffer.count, buffer.array)
    let (equal, shorterEqual) = (buffer.equals(expected), buffer.equals(Array(expected.dropLast())))
    #expect(count == expected.count)
    #expect(bytes == expected)
    #expect(equal)
    #expect(!shorterEqual)
    buffer.withUnsafeMutableBufferPointer { $0[0] = 0xFF }
    let changedEqual = buffer.equals(expected)
    #expect(!changedEqual)
    var text = ByteBuffer(capacity: 0)
    text.append(contentsOf: "héllo, \"json\"".utf8)
    let decoded = text.text
    #expect(decoded == "héllo, \"json\"")
    let empty = ByteBuffer(capacity: 4).array
    #expect(empty.isEmpty)
  }

  @Test func aWriterThatEscapedSlashesWouldBeSeen() throws {
    // The comparisons above can fail: JSONEncoder's text with escaped slashes differs.
    let delta = StackDelta(changes: [
      StackChange(path: "a/b", nextID: StackElementID(generation: 1), ids: [])
    ])
    let escaped = try Self.encoderText(delta).replacingOccurrences(of: "/", with: "\\/")
    withKnownIssue {
      #expect(StorageJSON.text(delta) == escaped)
    }
  }
}
