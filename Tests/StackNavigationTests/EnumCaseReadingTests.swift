import Foundation
import StackNavigation
import Testing

/// `EnumCaseReading` reads an enum's case and associated value from its type's metadata; these
/// hold it to what a `Mirror` reads, on enums of every layout the compiler picks: payloads in
/// spare bits and beside them, one payload among empty cases, payloads larger than an
/// existential's buffer, generic payloads, enums nested in generic types, resilient payloads
/// from Foundation, tuples, references, closures and existentials.
@Suite struct EnumCaseReadingTests {
  final class Reference: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
  }

  struct Large: Equatable, Sendable {
    var a = 1, b = 2, c = 3, d = 4, e = 5
    var text = "large"
  }

  enum SpareBits: Sendable {
    case reference(Reference)
    case other(Reference)
    case text(String)
    case empty
    case alsoEmpty
  }

  enum OnePayload: Sendable {
    case first, second, third
    case value(Int)
    case fourth
  }

  enum OnlyEmpty: Sendable {
    case a, b, c
  }

  enum SingleCase: Sendable {
    case only(Large)
  }

  enum Mixed: Sendable {
    case large(Large)
    case small(Int8)
    case labelled(offset: Double)
    case pair(id: Int, flag: OnlyEmpty)
    case tuple((Int, OnePayload))
    case optional(OnlyEmpty?)
    case closure(@Sendable () -> Int)
    case existential(any Sendable)
    case error(any Error)
    case date(Date)
    case url(URL)
    case data(Data)
    case array([Int])
    case dictionary([String: Int])
    case nested(SpareBits)
    case unit(())
    case none
  }

  enum Generic<Value: Sendable>: Sendable {
    case value(Value)
    case values(Value, Value)
    case nothing
  }

  struct Outer<Element: Sendable>: Sendable {
    enum Inner: Sendable {
      case element(Element)
      case count(Int)
      case empty
    }
  }

  indirect enum List: Sendable {
    case end
    case node(Int, List)
  }

  enum SomeIndirect: Sendable {
    case plain(Int)
    indirect case boxed(SomeIndirect)
  }

  enum Described: CustomStringConvertible, Sendable {
    case first, second(Int)
    var description: String { "described" }
  }

  enum Reflecting: CustomReflectable, Sendable {
    case plain(Int)
    var customMirror: Mirror { Mirror(self, children: ["other": 1]) }
  }

  struct Failure: Error, Equatable {}

  static let readable: [any Sendable] = [
    SpareBits.reference(Reference(1)), SpareBits.other(Reference(2)), SpareBits.text("t"),
    SpareBits.empty, SpareBits.alsoEmpty,
    OnePayload.first, OnePayload.third, OnePayload.value(-5), OnePayload.fourth,
    OnlyEmpty.a, OnlyEmpty.c,
    SingleCase.only(Large()),
    Mixed.large(Large(a: 9, text: String(repeating: "x", count: 100))),
    Mixed.small(-3), Mixed.labelled(offset: 1.5), Mixed.pair(id: 7, flag: .b),
    Mixed.tuple((1, .value(2))), Mixed.optional(.c), Mixed.optional(nil),
    Mixed.closure({ 1 }), Mixed.existential(OnePayload.value(3)), Mixed.existential(Large()),
    Mixed.error(Failure()), Mixed.date(Date(timeIntervalSince1970: 12)),
    Mixed.url(URL(string: "https://example.com/a")!), Mixed.data(Data([1, 2, 3])),
    Mixed.array([1, 2]), Mixed.dictionary(["a": 1]), Mixed.nested(.reference(Reference(3))),
    Mixed.none,
    Generic<Int>.value(1), Generic<String>.value("s"), Generic<Large>.values(Large(), Large()),
    Generic<OnlyEmpty>.value(.b), Generic<Generic<Int>>.value(.values(1, 2)),
    Generic<Int>.nothing,
    Outer<String>.Inner.element("e"), Outer<Large>.Inner.element(Large()),
    Outer<Int>.Inner.count(2), Outer<Int>.Inner.empty,
    SomeIndirect.plain(4), List.end,
    // Enums of other modules: the standard library's generic `Result`, Foundation's resilient
    // enums (their layouts known only at run time).
    Result<Int, Failure>.success(1), Result<Large, Failure>.failure(Failure()),
    Result<OnePayload, Failure>.success(.value(2)),
    FloatingPointRoundingRule.up, FloatingPointSign.minus,
    JSONEncoder.DateEncodingStrategy.secondsSince1970,
    JSONEncoder.KeyEncodingStrategy.convertToSnakeCase,
    JSONEncoder.KeyEncodingStrategy.custom { $0[$0.count - 1] },
    JSONDecoder.DataDecodingStrategy.base64,
  ]

  /// Read by reflection: an `indirect` case, a payload of no size (laid out as a case without
  /// one, though its record names a type), types with their own description or mirror.
  static let reflected: [any Sendable] = [
    Mixed.unit(()), List.node(1, .end), SomeIndirect.boxed(.plain(1)), Described.first,
    Described.second(1), Reflecting.plain(1),
  ]

  @Test func readsWhatAMirrorReads() throws {
    // Twice over: the first round checks each case against its mirror, the second trusts it.
    for round in 1...2 {
      for value in Self.readable {
        let read = try #require(
          EnumCaseReading.read(value), "round \(round): \(String(reflecting: value))")
        let mirror = Mirror(reflecting: value)
        if let child = mirror.children.first {
          #expect(read.name == child.label)
          let payload = try #require(read.payload)
          #expect(type(of: payload) == type(of: child.value))
          #expect(String(reflecting: payload) == String(reflecting: child.value))
        } else {
          #expect(read.name == String(describing: value))
          #expect(read.payload == nil)
        }
      }
    }
  }

  @Test func actionNamesAreWhatReflectionGives() {
    for value in Self.readable + Self.reflected {
      #expect(
        _JournalCaseName.of(value) == reflectedTypeName(value), "\(String(reflecting: value))")
      let wrapped = Generic<any Sendable>.value(value)
      #expect(_JournalCaseName.of(wrapped) == reflectedTypeName(wrapped))
    }
  }

  /// The check a case passes before it is trusted fails on any other name, payload type or
  /// payload value.
  @Test func theCheckAgainstTheMirrorCanFail() {
    #expect(EnumCaseReading.agrees(OnePayload.value(1), name: "value", payload: 1))
    #expect(!EnumCaseReading.agrees(OnePayload.value(1), name: "value", payload: 2))
    #expect(!EnumCaseReading.agrees(OnePayload.value(1), name: "value", payload: Int8(1)))
    #expect(!EnumCaseReading.agrees(OnePayload.value(1), name: "fourth", payload: 1))
    #expect(!EnumCaseReading.agrees(OnePayload.value(1), name: "value", payload: nil))
    #expect(EnumCaseReading.agrees(OnePayload.fourth, name: "fourth", payload: nil))
    #expect(!EnumCaseReading.agrees(OnePayload.fourth, name: "first", payload: nil))
    #expect(!EnumCaseReading.agrees(OnePayload.fourth, name: "fourth", payload: 1))
    #expect(!EnumCaseReading.agrees(Large(), name: "a", payload: 1))
  }

  @Test func payloadsAreCopiesThatOutliveTheValue() throws {
    var value: Mixed? = .large(Large(a: 42, text: String(repeating: "y", count: 64)))
    let read = try #require(EnumCaseReading.read(value!))
    value = nil
    #expect(read.payload as? Large == Large(a: 42, text: String(repeating: "y", count: 64)))
    let reference = Reference(11)
    let readReference = try #require(EnumCaseReading.read(SpareBits.other(reference)))
    #expect((readReference.payload as? Reference) === reference)
  }

  @Test func casesTheReadingLeavesToReflection() {
    for _ in 1...2 {
      for value in Self.reflected {
        #expect(EnumCaseReading.read(value) == nil, "\(String(reflecting: value))")
      }
    }
    // The other, direct case of an enum with an indirect one is read.
    #expect(EnumCaseReading.read(SomeIndirect.plain(2))?.name == "plain")
    for value: Any in [1, "text", OnlyEmpty?.some(.a), (OnlyEmpty.a, 1), Large(), Reference(1)] {
      #expect(EnumCaseReading.read(value) == nil)
    }
  }

  @Test func readsConcurrently() async {
    let names = await withTaskGroup(of: [String].self) { group in
      for _ in 0..<8 {
        group.addTask {
          (0..<200).map { index in
            let value: any Sendable =
              index.isMultiple(of: 2)
              ? Generic<Double>.value(Double(index)) : Outer<Double>.Inner.count(index)
            return EnumCaseReading.read(value)?.name ?? "unread"
          }
        }
      }
      return await group.reduce(into: []) { $0.append(contentsOf: $1) }
    }
    #expect(names.count == 1_600)
    #expect(Set(names) == ["value", "count"])
  }
}
