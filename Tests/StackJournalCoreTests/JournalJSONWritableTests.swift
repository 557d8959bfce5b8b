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
    return (sink.writer.bytes.array, sink.openedContainers)
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

  @Test func aStacksElementsWriteThemselvesInsideItsEncodable() throws {
    var stack = StackState<WritableParent.Path.State>()
    for child in Self.children { stack.append(.child(child)) }
    let written = try Self.written(stack)
    #expect(Data(written.bytes) == (try Self.encoderData(stack)))
    // The stack's object, its array and each entry's object; each element writes itself, but
    // for its address.
    #expect(written.containers == 2 + 2 * Self.children.count)
  }

  @Test func aStructOfOneMemberNamesItAsEncodableDoes() throws {
    let state = OneMember.State()
    let fast = try SortedJSONEncoder().encodeElement(state)
    let sink = try #require(SortedJSONEncoder.encodableSink(state))
    #expect(Data(fast.json.utf8) == Data(sink.writer.bytes.array))
    #expect(fast.caseName == "only")
    #expect(sink.onlyKey == "only")
  }

  @Test func aTypeEncodedByHandElsewhereIsWrittenThroughEncodable() throws {
    // The macro gave it a writer: it cannot see the `encode(to:)` in the extension.
    #expect(HandEncoded.State.self is any _JournalJSONWritable.Type)
    let state = HandEncoded.State(value: 3)
    let check = WritableChecks.Case(type: ObjectIdentifier(HandEncoded.State.self), index: 0)
    for value in 0..<3 {
      let state = HandEncoded.State(value: value)
      let bytes = try #require(SortedJSONEncoder.fastEncode(state))
      #expect(Data(bytes) == (try Self.encoderData(state)))
      #expect(!WritableChecks.shared.isKnownToAgree(check))
      #expect(!WritableChecks.shared.agrees(state, check, checking: []))
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
    #expect(WritableChecks.shared.isKnownToAgree(check))
  }

  @Test func aTypeMetBesideOneThatDiffersStillWritesItself() throws {
    // The slice is met first inside a value that also holds a type that differs: the value is
    // written through `Encodable`, and the slice is still found to agree, on its own value.
    let sandwich = Sandwich(
      first: Sandwich.Slice(label: "met before the hand-encoded state"),
      inner: HandEncoded.State(value: 2))
    let bytes = try #require(SortedJSONEncoder.fastEncode(sandwich))
    #expect(Data(bytes) == (try Self.encoderData(sandwich)))
    let slice = WritableChecks.Case(type: ObjectIdentifier(Sandwich.Slice.self), index: 0)
    #expect(WritableChecks.shared.isKnownToAgree(slice))
    let written = try Self.written(sandwich.first)
    #expect(Data(written.bytes) == (try Self.encoderData(sandwich.first)))
  }
}

/// A state whose stacks sit under writable values: a struct member, an array of structs, an
/// enum's case, and the elements of a stack.
@Reducer
struct NestedStacks {
  @ObservableState
  struct State: Equatable, Codable {
    var path = StackState<WritableParent.Path.State>()
    var sheet = Sheet()
    var tabs: [Sheet] = []
    var mode = Mode.empty
    var title = "nested"
  }

  @ObservableState
  struct Sheet: Equatable, Codable {
    var title = "sheet"
    var stack = StackState<WritableChild.State>()
    var parents: [WritableParent.State] = []
  }

  enum Action: Equatable, Codable { case tapped }
  var body: some ReducerOf<Self> { EmptyReducer() }
}

@_JournalCaseNamed
enum Mode: Equatable, Codable {
  case list(StackState<WritableChild.State>, note: String)
  case empty
}

extension JournalJSONWritableTests {
  static func nestedState() -> NestedStacks.State {
    var state = NestedStacks.State()
    state.path.append(.child(children[0]))
    state.sheet.stack.append(children[1])
    var parent = WritableParent.State(title: "inner")
    parent.path.append(.child(children[2]))
    state.sheet.parents = [parent, WritableParent.State()]
    var tab = NestedStacks.Sheet(title: "tab")
    tab.stack.append(children[0])
    tab.stack.append(children[2])
    state.tabs = [NestedStacks.Sheet(), tab]
    var list = StackState<WritableChild.State>()
    list.append(children[1])
    state.mode = .list(list, note: "n")
    return state
  }

  /// The stacks one walk finds, with or without the writers.
  static func walked<S: Encodable>(_ state: S, writers: Bool) throws -> (
    records: [StackRecord], walkedWriters: Bool
  ) {
    let walk = StackWalk(previous: [:], encoder: SortedJSONEncoder())
    walk.walksWriters = writers
    try walk.run(state)
    return (try walk.sortedRecords(), walk.walksWriters)
  }

  @Test func stacksUnderWritableValuesAreFoundAtTheirPaths() throws {
    let state = Self.nestedState()
    // The walk checks the writers it meets for the first time.
    let throughWriters = try Self.walked(state, writers: true)
    #expect(throughWriters.walkedWriters)
    let throughEncodable = try Self.walked(state, writers: false)
    #expect(throughWriters.records == throughEncodable.records)
    #expect(throughWriters.records.count == 7, "\(throughWriters.records.map(\.path))")
  }

  @Test func aValueThatDiffersIsWalkedThroughItsEncodableWhereItStands() throws {
    var renamed = Renamed()
    renamed.stack.append(Self.children[0])
    var sheet = NestedStacks.Sheet()
    sheet.stack.append(Self.children[1])
    let wrapper = Wrapper(inner: HandEncoded.State(value: 1), sheet: sheet, renamed: renamed)
    // Before and after it was written: its writer would name the stack `renamed.stack`.
    for _ in 0..<2 {
      let walked = try Self.walked(wrapper, writers: true)
      #expect(walked.walkedWriters)
      #expect(walked.records == (try Self.walked(wrapper, writers: false)).records)
      #expect(walked.records.map(\.path) == ["renamed.renamedStack", "sheet.stack"])
      _ = try #require(SortedJSONEncoder.fastEncode(wrapper))
    }
  }
}

@ObservableState
struct Sandwich: Equatable, Codable {
  var first: Slice
  var inner: HandEncoded.State

  @ObservableState
  struct Slice: Equatable, Codable {
    var label: String
  }
}

@ObservableState
struct Wrapper: Equatable, Codable {
  var inner: HandEncoded.State
  var sheet: NestedStacks.Sheet
  var renamed = Renamed()
}

/// A state that encodes its stack under another key, in an extension its macro does not see.
@ObservableState
struct Renamed: Equatable, Codable {
  var stack = StackState<WritableChild.State>()
}

extension Renamed {
  private enum OtherKeys: String, CodingKey { case renamedStack }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: OtherKeys.self)
    try container.encode(stack, forKey: .renamedStack)
  }
}
