// SortedJSONEncoder writes byte for byte what JSONEncoder writes with sorted keys and unescaped
// slashes, on random values of every shape Codable can write, and on the demo's states and
// actions; where it cannot, JSONEncoder writes the value (or throws) instead.
import Foundation
import StackJournalDemo
import StackNavigation
import Testing

@testable import StackJournalCore

@Suite struct SortedJSONEncoderTests {
  static func encoderData<T: Encodable>(_ value: T) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(value)
  }

  /// A random value, encoded through every kind of container.
  indirect enum Value: Encodable {
    case object([(key: String, value: Value)], nested: Bool)
    case array([Value], nested: Bool)
    case string(String)
    case integer(Int64)
    case unsigned(UInt8)
    case double(Double)
    case float(Float)
    case bool(Bool)
    case null
    case date(Date)
    case url(URL)
    case record(Record)
    /// Writes the coding path it is encoded at.
    case pathProbe

    struct Key: CodingKey {
      let stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
      switch self {
      case let .object(members, nested):
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in members {
          switch (nested, value) {
          case let (true, .object(inner, _)):
            var child = container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: key))
            for (innerKey, innerValue) in inner {
              try child.encode(innerValue, forKey: Key(stringValue: innerKey))
            }
          case let (true, .array(inner, _)):
            var child = container.nestedUnkeyedContainer(forKey: Key(stringValue: key))
            for innerValue in inner { try child.encode(innerValue) }
          case let (_, .string(string)): try container.encode(string, forKey: Key(stringValue: key))
          case let (_, .double(double)): try container.encode(double, forKey: Key(stringValue: key))
          case let (_, .integer(integer)):
            try container.encode(integer, forKey: Key(stringValue: key))
          case (_, .null): try container.encodeNil(forKey: Key(stringValue: key))
          default: try container.encode(value, forKey: Key(stringValue: key))
          }
        }
      case let .array(values, nested):
        var container = encoder.unkeyedContainer()
        for value in values {
          switch (nested, value) {
          case let (true, .object(inner, _)):
            var child = container.nestedContainer(keyedBy: Key.self)
            for (innerKey, innerValue) in inner {
              try child.encode(innerValue, forKey: Key(stringValue: innerKey))
            }
          case let (true, .array(inner, _)):
            var child = container.nestedUnkeyedContainer()
            for innerValue in inner { try child.encode(innerValue) }
          case let (_, .string(string)): try container.encode(string)
          case let (_, .bool(bool)): try container.encode(bool)
          case let (_, .float(float)): try container.encode(float)
          case (_, .null): try container.encodeNil()
          default: try container.encode(value)
          }
        }
      case let .string(string): try string.encode(to: encoder)
      case let .integer(integer): try integer.encode(to: encoder)
      case let .unsigned(unsigned): try unsigned.encode(to: encoder)
      case let .double(double): try double.encode(to: encoder)
      case let .float(float): try float.encode(to: encoder)
      case let .bool(bool): try bool.encode(to: encoder)
      case .null:
        var container = encoder.singleValueContainer()
        try container.encodeNil()
      case let .date(date): try date.encode(to: encoder)
      case let .url(url):
        var container = encoder.singleValueContainer()
        try container.encode(url)
      case let .record(record): try record.encode(to: encoder)
      case .pathProbe:
        var container = encoder.singleValueContainer()
        try container.encode(
          encoder.codingPath.map { key in key.stringValue + (key.intValue.map { "#\($0)" } ?? "") })
      }
    }
  }

  /// A value with the shapes synthesised conformances write: optionals, enums with and without
  /// associated values, arrays and dictionaries.
  struct Record: Encodable {
    enum Kind: Encodable {
      case plain
      case labelled(id: Int, name: String)
      case unlabelled(String, [Int])
    }
    var title: String
    var count: Int?
    var kind: Kind
    var scores: [String: Double]
    var tags: [Int: String]
    var cents: Int16
  }

  static func string(_ generator: inout SeededGenerator) -> String {
    StorageJSONTests.string(&generator)
  }

  /// Mostly ASCII keys, some repeated, a few not ASCII.
  static func key(_ generator: inout SeededGenerator) -> String {
    switch Int.random(in: 0..<40, using: &generator) {
    case 0: return "é\(Int.random(in: 0..<3, using: &generator))"
    case 1: return ""
    default:
      let letters = Array("abcABC_09z-/\"\\\n")
      return String((0..<Int.random(in: 1...3, using: &generator)).map { _ in
        letters.randomElement(using: &generator)!
      })
    }
  }

  static func double(_ generator: inout SeededGenerator) -> Double {
    switch Int.random(in: 0..<6, using: &generator) {
    case 0: return Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
    case 1: return [0.1, -0.0, 1e16, 1e15, 1e-7, 123.456, 1e300, .leastNonzeroMagnitude].randomElement(
        using: &generator)!
    case 2: return Double.random(in: -1...1, using: &generator)
    default:
      // Any finite bit pattern.
      while true {
        let double = Double(bitPattern: UInt64.random(in: .min ... .max, using: &generator))
        if double.isFinite { return double }
      }
    }
  }

  static func value(_ generator: inout SeededGenerator, depth: Int = 0) -> Value {
    let leaf = depth >= 4 || Int.random(in: 0..<3, using: &generator) == 0
    if !leaf {
      let count = Int.random(in: 0...5, using: &generator)
      if Bool.random(using: &generator) {
        var members = (0..<count).map { _ in (key(&generator), value(&generator, depth: depth + 1)) }
        let nested = Bool.random(using: &generator)
        if nested {
          // JSONEncoder stops the program when a nested container reuses a key.
          var seen = Set<String>()
          members = members.filter { seen.insert($0.0).inserted }
        }
        return .object(members, nested: nested)
      }
      return .array(
        (0..<count).map { _ in value(&generator, depth: depth + 1) },
        nested: Bool.random(using: &generator))
    }
    switch Int.random(in: 0..<40, using: &generator) {
    case 0..<5: return .string(string(&generator))
    case 5..<8: return .integer(Int64.random(in: .min ... .max, using: &generator))
    case 8: return .unsigned(UInt8.random(in: .min ... .max, using: &generator))
    case 9..<12: return .double(double(&generator))
    case 12..<14:
      return .float(Float(bitPattern: UInt32.random(in: 0...0x7F7F_FFFF, using: &generator)))
    case 14..<16: return .bool(Bool.random(using: &generator))
    case 16: return .null
    case 17: return .date(Date(timeIntervalSinceReferenceDate: double(&generator)))
    case 19..<22: return .pathProbe
    case 18: return .url(URL(string: "https://example.com/\(Int.random(in: 0...9, using: &generator))")!)
    default:
      let kinds: [Record.Kind] = [
        .plain, .labelled(id: Int.random(in: -5...5, using: &generator), name: string(&generator)),
        .unlabelled(string(&generator), [1, 2, Int.random(in: 0...9, using: &generator)]),
      ]
      return .record(
        Record(
          title: string(&generator),
          count: Bool.random(using: &generator) ? nil : Int.random(in: 0...99, using: &generator),
          kind: kinds.randomElement(using: &generator)!,
          scores: Dictionary(
            [(key(&generator), double(&generator)), (key(&generator), 2.5)],
            uniquingKeysWith: { first, _ in first }),
          tags: [Int.random(in: -3...3, using: &generator): string(&generator)],
          cents: Int16.random(in: .min ... .max, using: &generator)))
    }
  }

  @Test func randomValuesAreWrittenAsJSONEncoderWritesThem() throws {
    var generator = SeededGenerator(seed: 20_261_125)
    var written = 0
    var named = 0
    let rounds = 2_000
    for round in 0..<rounds {
      let value = Self.value(&generator)
      let expected = try Self.encoderData(value)
      let encoded = try SortedJSONEncoder().encode(value)
      #expect(
        encoded == expected,
        "round \(round): \(String(decoding: encoded, as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))"
      )
      if SortedJSONEncoder.fastEncode(value) != nil { written += 1 }
      // As a stack element: the same text, and the case name the scanner reads from it.
      let element = try SortedJSONEncoder().encodeElement(value)
      #expect(element.json == String(decoding: expected, as: UTF8.self), "round \(round)")
      #expect(element.caseName == JSONText.caseName(of: expected), "round \(round)")
      if element.caseName != nil { named += 1 }
    }
    #expect(named > 0 && named < rounds, "one-member objects: \(named) of \(rounds)")
    // Most values are written by the encoder itself, not handed to JSONEncoder.
    #expect(written > rounds / 2, "written by SortedJSONEncoder: \(written) of \(rounds)")
  }

  @Test func integersAtTheirLimitsAreWrittenAsJSONEncoderWritesThem() throws {
    struct Limits: Encodable {
      var int = [Int.min, Int.min + 1, -10, -9, -1, 0, 1, 9, 10, 99, 100, Int.max]
      var small = [Int8.min, Int8.max]
      var unsigned = [UInt64.max, UInt64(Int.max) + 1, 0]
      var wide = [Int64.min, Int64.max]
    }
    #expect(try SortedJSONEncoder().encode(Limits()) == Self.encoderData(Limits()))
  }

  /// A dictionary writes its keys in hash order: the encoder sorts thousands of members of one
  /// object, and a key written twice among many is still left to `JSONEncoder`.
  @Test func largeObjectsOutOfKeyOrderAreWrittenAsJSONEncoderWritesThem() throws {
    var generator = SeededGenerator(seed: 11)
    for size in [33, 1_000, 20_000] {
      var table: [String: Int] = [:]
      while table.count < size {
        table["k\(UInt32.random(in: 0...UInt32.max, using: &generator))"] = table.count
      }
      // Written by the encoder itself (`fastEncode`), not handed to JSONEncoder.
      let written = try #require(SortedJSONEncoder.fastEncode(table))
      #expect(Data(written) == (try Self.encoderData(table)))
      let nested = try #require(SortedJSONEncoder.fastEncode(["outer": table, "a": [:]]))
      #expect(Data(nested) == (try Self.encoderData(["outer": table, "a": [:]])))
    }
  }

  @Test func theDemosStatesAndActionsAreWrittenByItself() throws {
    var generator = SeededGenerator(seed: 7)
    var state = DemoScript.deepLink
    let feature = RootFeature()
    for _ in 0..<300 {
      let action = DemoScript.nextAction(for: state, using: &generator, allowEffects: false)
      _ = feature.reduce(into: &state, action: action)
      let actionBytes = try #require(SortedJSONEncoder.fastEncode(action))
      #expect(Data(actionBytes) == (try Self.encoderData(action)))
      let stateBytes = try #require(SortedJSONEncoder.fastEncode(state))
      #expect(Data(stateBytes) == (try Self.encoderData(state)))
    }
  }

  @Test func whatItCannotWriteJSONEncoderWrites() throws {
    struct Twice: Encodable {
      enum Key: CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var first = encoder.container(keyedBy: Key.self)
        try first.encode(1, forKey: .b)
        var second = encoder.container(keyedBy: Key.self)
        try second.encode(2, forKey: .a)
      }
    }
    struct Late: Encodable {
      enum Key: CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var a = container.nestedUnkeyedContainer(forKey: .a)
        var b = container.nestedUnkeyedContainer(forKey: .b)
        try b.encode(2)
        try a.encode(1)
      }
    }
    // A key written twice in one container, after a later key or right after itself.
    struct Again: Encodable {
      enum Key: CodingKey { case a, b, c }
      var keys: [Key]
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (index, key) in keys.enumerated() { try container.encode(index, forKey: key) }
      }
    }
    struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
    struct Super: Encodable {
      enum Key: CodingKey { case a }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: .a)
        try "up".encode(to: container.superEncoder())
      }
    }
    struct Wide: Encodable { var value: Int128 = Int128(Int64.max) * 4 }
    let values: [any Encodable] = [
      Twice(), Late(), [Nothing()], Super(), Wide(), ["b": 1, "a": 2, "é": 3],
      Again(keys: [.c, .a, .b, .a]), Again(keys: [.a, .a]), [Again(keys: [.b, .c, .b])],
      Data([1, 2, 3]), Decimal(string: "1.25")!,
    ]
    for value in values {
      #expect(SortedJSONEncoder.fastEncode(value) == nil, "\(value)")
      let expected = Result { try Self.encoderData(value) }
      let encoded = Result { try SortedJSONEncoder().encode(value) }
      #expect((try? encoded.get()) == (try? expected.get()), "\(value)")
    }
    // What JSONEncoder refuses, this refuses too.
    #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode([Double.nan]) }
    #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode(Nothing()) }
  }

  @Test func aDateIsWrittenAsJSONEncoderWritesIt() throws {
    // Under `.deferredToDate`, JSONEncoder writes a date through its own `encode(to:)`.
    struct Stamp: Encodable {
      var at: Date
      var dates: [Date]
      var maybe: Date?
    }
    let values: [any Encodable] = [
      [Date(timeIntervalSince1970: 0)],
      Stamp(
        at: Date(timeIntervalSinceReferenceDate: 786_123_456.789_012),
        dates: [Date(timeIntervalSinceReferenceDate: -1.5), .distantFuture], maybe: nil),
    ]
    for value in values {
      let fast = SortedJSONEncoder.fastEncode(value).map { Data($0) }
      let expected = try Self.encoderData(value)
      #expect(fast == expected, "\(value)")
    }
  }

  @Test func aDifferenceFromJSONEncoderWouldBeSeen() throws {
    // The comparisons above can fail: JSONEncoder's text with escaped slashes differs.
    let value = ["path": "a/b"]
    let escaped = String(decoding: try Self.encoderData(value), as: UTF8.self)
      .replacingOccurrences(of: "/", with: "\\/")
    let written = String(decoding: try SortedJSONEncoder().encode(value), as: UTF8.self)
    withKnownIssue {
      #expect(written == escaped)
    }
  }
}
