// The JSON writers the macros generate (`_JournalJSONWritable`) write byte for byte what the
// types' `Encodable` writes through JSONEncoder with sorted keys, without asking for a single
// container where every type on the way writes itself; a type whose `Encodable` is written by
// hand where the macros cannot see it is caught the first time and written through `Encodable`.
import Foundation
import StackNavigation
import Testing

@testable import StackJournalCore

@Reducer
struct WritableChild {
  @ObservableState
  struct State: Equatable, Codable {
    var name = ""
    var count = 0
    var offset = 0.0
    var ratio: Float = 0.5
    var tags: [String] = []
    var scores: [Int] = [3, -1]
    var offsets: [Double] = [0.5, 1]
    var flags: [Bool] = []
    var note: String?
    var limit: Int?
    var flag = false
    var small: Int8 = -3
    var big: UInt64 = .max
    var address = Address()
    var doubled: Int { count * 2 }
    var observed = 1 {
      didSet {}
    }
    static let shared = 1
  }

  struct Address: Equatable, Codable {
    var street = "1 Main St"
    var zip: String?
  }

  enum Action: Equatable, Codable {
    case tapped
    case renamed(String)
    case moved(x: Double, y: Double)
    case limited(Int?, label: String)
    case `default`
    case sorted(Sort)
  }

  enum Sort: String, Codable, Equatable {
    case name, date
  }

  var body: some ReducerOf<Self> { EmptyReducer() }
}

@Reducer
struct WritableParent {
  @ObservableState
  struct State: Equatable, Codable {
    var path = StackState<Path.State>()
    var title = "Shop"
    var recent: [WritableChild.State] = []
  }

  enum Action: Equatable, Codable {
    case path(StackActionOf<Path>)
    case titleChanged(String)
  }

  @Reducer
  enum Path {
    case child(WritableChild)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer().forEach(\.path, action: \.path)
  }
}

extension WritableParent.Path.State: Equatable, Codable {}
extension WritableParent.Path.Action: Equatable, Codable {}

@Reducer
struct OneMember {
  @ObservableState
  struct State: Equatable, Codable {
    var only = 1
  }
  enum Action: Equatable, Codable { case tapped }
  var body: some ReducerOf<Self> { EmptyReducer() }
}

/// A state whose `Encodable` is written by hand in an extension the macro does not see: its
/// generated writer writes otherwise.
@Reducer
struct HandEncoded {
  @ObservableState
  struct State: Equatable, Codable {
    var value = 0
  }
  enum Action: Equatable, Codable { case tapped }
  var body: some ReducerOf<Self> { EmptyReducer() }
}

extension HandEncoded.State {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode("value \(value)")
  }
}

@Suite struct JournalJSONWritableTests {
  static func encoderData<T: Encodable>(_ value: T) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(value)
  }

  static let children: [WritableChild.State] = [
    WritableChild.State(),
    WritableChild.State(
      name: "Zoë \"quoted\" \\ back/slash\n\u{1}", count: -42, offset: 1e300, ratio: 0.1,
      tags: ["a", "", "ü"], scores: [], offsets: [-0.25, 1e-7], flags: [true, false], note: "n", limit: 0, flag: true, small: .min, big: 0,
      address: .init(street: "", zip: "12345"), observed: 7),
    WritableChild.State(offset: -0.1, tags: [], limit: .max),
  ]

  static let actions: [WritableParent.Action] = [
    .titleChanged("t"),
    .path(.popFrom(id: StackElementID(generation: 3))),
    .path(.push(id: StackElementID(generation: 4), state: .child(children[1]))),
    .path(.element(id: StackElementID(generation: 0), action: .child(.tapped))),
    .path(.element(id: StackElementID(generation: 1), action: .child(.renamed("x\"y")))),
    .path(.element(id: StackElementID(generation: 2), action: .child(.moved(x: 1, y: -2.5)))),
    .path(.element(id: StackElementID(generation: 2), action: .child(.limited(nil, label: "")))),
    .path(.element(id: StackElementID(generation: 2), action: .child(.limited(5, label: "l")))),
    .path(.element(id: StackElementID(generation: 2), action: .child(.default))),
    .path(.element(id: StackElementID(generation: 2), action: .child(.sorted(.date)))),
  ]

  /// Writes `value` as the journal does and returns the bytes and whether it wrote itself
  /// without any of `Encodable`'s containers.
  static func written<T: Encodable>(_ value: T) throws -> (bytes: [UInt8], containers: Int) {
    let sink = JSONSink()
    try sink.writeValue(value, pathCount: 0, key: nil)
    #expect(sink.metWritable)
    return (sink.writer.bytes, sink.openedContainers)
  }

  @Test func actionsAreWrittenAsJSONEncoderWritesThem() throws {
    for action in Self.actions {
      let bytes = try #require(SortedJSONEncoder.fastEncode(action))
      #expect(Data(bytes) == (try Self.encoderData(action)), "\(action)")
      // The writers alone: every type on the way writes itself, but for a pushed state's
      // address.
      let written = try Self.written(action)
      #expect(written.bytes == bytes)
      if case .path(.push) = action {
        #expect(written.containers == 1)
      } else {
        #expect(written.containers == 0, "\(action)")
      }
    }
  }

  @Test func statesAreWrittenAsJSONEncoderWritesThem() throws {
    for child in Self.children {
      let bytes = try #require(SortedJSONEncoder.fastEncode(child))
      #expect(Data(bytes) == (try Self.encoderData(child)))
      // `Address` is not written by a macro: its members go through a container.
      #expect(try Self.written(child).containers == 1)
      let element = WritableParent.Path.State.child(child)
      let encoded = try SortedJSONEncoder().encodeElement(element)
      #expect(Data(encoded.json.utf8) == (try Self.encoderData(element)))
      #expect(encoded.caseName == "child")
      #expect(!encoded.mayHoldStacks)
      let state = try SortedJSONEncoder().encodeElement(child)
      #expect(state.caseName == nil)
    }
    var parent = WritableParent.State(recent: Self.children)
    for child in Self.children { parent.path.append(.child(child)) }
    let bytes = try #require(SortedJSONEncoder.fastEncode(parent))
    #expect(Data(bytes) == (try Self.encoderData(parent)))
    let encoded = try SortedJSONEncoder().encodeElement(parent)
    // Stacks are written through `Encodable`, which tells that one was met.
    #expect(encoded.mayHoldStacks)
    #expect(encoded.caseName == nil)
  }

  @Test func aStructOfOneMemberNamesItAsEncodableDoes() throws {
    let state = OneMember.State()
    let fast = try SortedJSONEncoder().encodeElement(state)
    let sink = try #require(SortedJSONEncoder.encodableSink(state))
    #expect(Data(fast.json.utf8) == Data(sink.writer.bytes))
    #expect(fast.caseName == "only")
    #expect(sink.onlyKey == "only")
  }

  @Test func aTypeEncodedByHandElsewhereIsWrittenThroughEncodable() throws {
    let state = HandEncoded.State(value: 3)
    let check = WritableChecks.Case(type: ObjectIdentifier(HandEncoded.State.self), index: 0)
    // Its generated writer writes an object; its `Encodable`, a string.
    #expect(try Self.written(state).bytes != Array(try Self.encoderData(state)))
    for value in 0..<3 {
      let state = HandEncoded.State(value: value)
      let bytes = try #require(SortedJSONEncoder.fastEncode(state))
      #expect(Data(bytes) == (try Self.encoderData(state)))
      #expect(WritableChecks.shared.status(of: check) == .differs)
    }
    // Nested in a writable enum, the enum's case is checked with it and written through
    // `Encodable` too.
    let action = StackAction<HandEncoded.State, HandEncoded.Action>.push(
      id: StackElementID(generation: 1), state: state)
    let bytes = try #require(SortedJSONEncoder.fastEncode(action))
    #expect(Data(bytes) == (try Self.encoderData(action)))
  }

  @Test func aCheckedCaseIsTrusted() throws {
    let action = WritableParent.Action.titleChanged("checked")
    _ = try #require(SortedJSONEncoder.fastEncode(action))
    let check = WritableChecks.Case(type: ObjectIdentifier(WritableParent.Action.self), index: 1)
    #expect(WritableChecks.shared.status(of: check) == .agrees)
    let sink = JSONSink()
    try sink.writeValue(action, pathCount: 0, key: nil)
    #expect(sink.unchecked.isEmpty)
  }
}
