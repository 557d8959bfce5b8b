import Foundation
import StackJournalTestSupport
import StackNavigation
import StackNavigationTesting
import Testing

/// A state with a field whose type is not `Codable`, as SyncUps' `SyncUpForm.State.focus`.
@ObservableState
struct FocusedForm: Equatable, Sendable {
  enum Field: Hashable, Sendable { case title }
  var focus: Field?
  var title = ""
}

/// A binding action is encoded by the name of its field, and decodes into the action it was:
/// equal, matching the same case paths, writing the same value.
@Suite struct BindingCodingTests {
  static let bindings: [BindingForm.Action] = [
    .binding(.set(\.title, "Design review")),
    .binding(.set(\.count, 3)),
    .binding(.set(\.note, "Bring slides")),
    .binding(.set(\.note, nil)),
    .binding(.set(\.details, BindingForm.State.Details())),
  ]

  static func encoded(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func decoded(_ json: String) throws -> BindingForm.Action {
    try JSONDecoder().decode(BindingForm.Action.self, from: Data(json.utf8))
  }

  @Test func aBindingIsTheNameOfItsFieldAndTheValue() throws {
    #expect(
      try Self.encoded(BindingForm.Action.binding(.set(\.title, "Design review")))
        == #"{"binding":{"_0":{"set":{"field":"title","value":"Design review"}}}}"#)
    #expect(
      try Self.encoded(BindingForm.Action.binding(.set(\.note, nil)))
        == #"{"binding":{"_0":{"set":{"field":"note","value":null}}}}"#)
  }

  @Test(arguments: bindings)
  func aDecodedBindingIsTheActionItWas(_ action: BindingForm.Action) throws {
    let decoded = try Self.decoded(try Self.encoded(action))
    #expect(decoded == action)
    #expect(decoded.binding?.keyPath == action.binding?.keyPath)
    // Applied by `BindingReducer`, it writes what the original writes.
    var original = BindingForm.State(title: "Planning", count: 1, note: "Agenda")
    var restored = original
    _ = BindingForm().reduce(into: &original, action: action)
    _ = BindingForm().reduce(into: &restored, action: decoded)
    #expect(restored == original)
  }

  @Test func aDecodedBindingMatchesItsFieldsCasePathAndPattern() throws {
    let decoded = try Self.decoded(
      #"{"binding":{"_0":{"set":{"field":"title","value":"Retro"}}}}"#)
    #expect(decoded[case: \.binding.title] as String? == "Retro")
    #expect(decoded[case: \.binding.count] as Int? == nil)
    guard case .binding(let binding) = decoded else {
      Issue.record("not a binding: \(decoded)")
      return
    }
    switch binding {
    case \.count: Issue.record("matched \\.count")
    case \.title: break
    default: Issue.record("matched no field")
    }
  }

  @MainActor
  @Test func aTestStoreSendsADecodedBindingAsTheOriginal() async throws {
    let store = TestStore(initialState: BindingForm.State()) { BindingForm() }
    await store.send(try Self.decoded(try Self.encoded(BindingForm.Action.set(\.count, 5)))) {
      $0.count = 5
    }
    await store.send(\.binding.title, "Retro") {
      $0.title = "Retro"
    }
  }

  @Test func aNestedKeyPathIsRefusedWithAnErrorThatNamesIt() throws {
    let action = BindingForm.Action.binding(.set(\.details.title, "Inside"))
    let error = try #require(throws: EncodingError.self) { try Self.encoded(action) }
    guard case .invalidValue(_, let context) = error else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(context.debugDescription.contains(".details.title"), "\(context.debugDescription)")
    #expect(context.debugDescription.contains("'details'"), "\(context.debugDescription)")
    #expect(
      context.debugDescription.hasSuffix("Bind the whole field instead: .set(\\.details, …)."),
      "\(context.debugDescription)")
  }

  @Test func aFieldThatIsNotCodableIsRefusedWithAnErrorThatNamesIt() throws {
    let binding = BindingAction<FocusedForm>.set(\.focus, .title)
    let error = try #require(throws: EncodingError.self) { try Self.encoded(binding) }
    guard case .invalidValue(_, let context) = error else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(context.debugDescription.contains("'focus'"), "\(context.debugDescription)")
    // The state's other fields still encode, and decode.
    let title = BindingAction<FocusedForm>.set(\.title, "Retro")
    let json = try Self.encoded(title)
    #expect(json == #"{"set":{"field":"title","value":"Retro"}}"#)
    #expect(
      try JSONDecoder().decode(BindingAction<FocusedForm>.self, from: Data(json.utf8)) == title)
  }

  @Test func aFieldThatDoesNotDecodeIsRefusedWithAnErrorThatNamesIt() throws {
    for json in [
      #"{"set":{"field":"focus","value":"title"}}"#,
      #"{"set":{"field":"missing","value":1}}"#,
    ] {
      let error = try #require(throws: DecodingError.self) {
        try JSONDecoder().decode(BindingAction<FocusedForm>.self, from: Data(json.utf8))
      }
      guard case .dataCorrupted(let context) = error else {
        Issue.record("unexpected \(error)")
        continue
      }
      #expect(context.debugDescription.contains("FocusedForm has no field"))
    }
    // A value of the wrong type is the value's decoding error.
    #expect(throws: DecodingError.self) {
      try Self.decoded(#"{"binding":{"_0":{"set":{"field":"count","value":"three"}}}}"#)
    }
  }
}
