import Foundation
import NavigationService
import StackNavigation
import Testing

/// A value with every kind of field `JSONEncoder` treats in its own way.
private struct Sample: Codable {
  enum Mode: Codable { case plain, tagged(label: String, weight: Double), nested(Sample2) }
  struct Sample2: Codable {
    var items: [[Int]]
    var table: [String: Bool?]
  }
  var text = "tab\there \"quoted\" \u{1F600} é"
  var number = 0.1
  var whole = 3.0
  var small: Float = 0.1
  var negative = -42
  var huge = Int64.max
  var unsigned: UInt64 = 12
  var flag = true
  var missing: String? = nil
  var present: Int? = 7
  var date = Date(timeIntervalSinceReferenceDate: 123_456.5)
  var data = Data([0, 1, 2, 250, 255])
  var url = URL(string: "https://example.com/a%20b?q=1")!
  var decimal = Decimal(string: "12.5")!
  var byNumber: [Int: String] = [1: "one", 20: "twenty"]
  var modes: [Mode] = [
    .plain, .tagged(label: "x", weight: 2.5),
    .nested(Sample2(items: [[], [1, 2]], table: ["a": nil, "b": false])),
  ]
  var empty: [String: Int] = [:]
}

/// A class that encodes its superclass's fields under `super`, as a subclass may.
private class Base: Encodable {
  var base = 1
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(base, forKey: .base)
  }
  enum CodingKeys: String, CodingKey { case base }
}

private final class Derived: Base {
  var own = "own"
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(own, forKey: .own)
    try super.encode(to: container.superEncoder())
    var list = container.nestedUnkeyedContainer(forKey: .list)
    try list.encode(1)
    try super.encode(to: list.superEncoder())
    var inner = list.nestedContainer(keyedBy: Keys.self)
    try inner.encode("in", forKey: .own)
  }
  enum Keys: String, CodingKey { case own, list }
}

/// What `JSONEncoder` writes for `value`, keys sorted.
private func written(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// What a response held for `value` before `JSONValue(encoding:)` built it directly: `value`'s
/// JSON read back by `JSONDecoder`, then written again. A `Float` such as 123456792 is written
/// `1.2345679e+08` by `JSONEncoder` and `123456792` after the round trip: the same number.
private func roundTripped(_ value: some Encodable) throws -> String {
  try written(JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value)))
}

@Suite("JSONValue(encoding:) builds what JSONEncoder writes")
struct JSONValueEncoderTests {
  @Test("every kind of field, nested containers and super encoders")
  func sameAsJSONEncoder() throws {
    #expect(try written(JSONValue(encoding: Sample())) == written(Sample()))
    #expect(try written(JSONValue(encoding: Derived())) == written(Derived()))
    #expect(try written(JSONValue(encoding: [Sample(), Sample()])) == written([Sample(), Sample()]))
    #expect(try written(JSONValue(encoding: Sample())) == roundTripped(Sample()))
    #expect(try JSONValue(encoding: "top") == .string("top"))
  }

  @Test("a wizard's state, stack included")
  func wizardState() throws {
    var state = SignupWizard.State()
    state.path.append(.name(NameStep.State()))
    state.path.append(.plan(PlanStep.State(name: "Ada")))
    state.submitted = 2
    #expect(try written(JSONValue(encoding: state)) == written(state))
  }

  @Test("random numbers: doubles and integers as JSONEncoder writes them, floats the same numbers")
  func randomNumbers() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let double = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
      let integer = Int64.random(in: .min ... .max, using: &generator)
      let doubles = [double, -double, Double(integer), Double(integer >> 20), double.rounded()]
      let builtDoubles = try written(JSONValue(encoding: doubles))
      #expect(builtDoubles == (try written(doubles)))
      #expect(try written(JSONValue(encoding: [integer])) == written([integer]))
      // `JSONEncoder` writes 123456792 as `1.2345679e+08`; it is written `123456792` here.
      let float = Float(bitPattern: UInt32.random(in: 0..<0x7F7F_FFFF, using: &generator))
      let builtFloat = try JSONDecoder().decode(
        [Double].self, from: Data(written(JSONValue(encoding: [float])).utf8))
      let writtenFloat = try JSONDecoder().decode(
        [Double].self, from: JSONEncoder().encode([float]))
      #expect(builtFloat == writtenFloat)
    }
  }

  @Test("a number JSON cannot hold is refused, as JSONEncoder refuses it")
  func nonFinite() {
    #expect(throws: EncodingError.self) { try JSONValue(encoding: [1.0, .nan]) }
    #expect(throws: EncodingError.self) { try JSONValue(encoding: ["x": Float.infinity]) }
    #expect(throws: EncodingError.self) { try JSONEncoder().encode([1.0, .nan]) }
  }
}
