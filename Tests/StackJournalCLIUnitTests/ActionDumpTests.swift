import Foundation
import StackJournalCore
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import Testing

@testable import StackJournalCLI

/// Payloads read as a TCA user reads actions, without the app's types.
struct ActionDumpTests {
  static let payloads: [(String, String)] = [
    (#"{"addButtonTapped":{}}"#, ".addButtonTapped"),
    (#"{"pushNumberFactTapped":{"number":42}}"#, ".pushNumberFactTapped(number: 42)"),
    (#"{"path":{"_0":{"popFrom":{"id":3}}}}"#, ".path(.popFrom(id: #3))"),
    (
      #"{"path":{"_0":{"element":{"action":{"counter":{"_0":{"incrementButtonTapped":{}}}},"id":4}}}}"#,
      ".path(.element(id: #4, action: .counter(.incrementButtonTapped)))"
    ),
    (
      #"{"path":{"_0":{"push":{"id":5,"state":{"counter":{"_0":{"count":7}}}}}}}"#,
      ".path(.push(id: #5, state: .counter((count: 7))))"
    ),
    // Unlabelled values by number, not as the keys sort ("_10" before "_2").
    (
      #"{"many":{"_0":0,"_1":1,"_10":10,"_2":2,"_3":3,"_4":4,"_5":5,"_6":6,"_7":7,"_8":8,"_9":9}}"#,
      ".many(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)"
    ),
    (#"{"mixed":{"_1":"b","label":true,"_0":"a"}}"#, #".mixed("a", label: true, "b")"#),
    (#"{"response":{"_0":null}}"#, ".response(nil)"),
    (#"{"list":{"_0":[1,"two",{"x":{}}]}}"#, #".list([1, "two", .x])"#),
    // An object of several fields is a value of an unknown type.
    (#"{"a":1,"b":"x"}"#, #"(a: 1, b: "x")"#),
    (#"{"count":1}"#, "(count: 1)"),
    // A stack action of another shape is dumped as it stands.
    (#"{"element":{"id":"x","action":{}}}"#, #".element(id: "x", action: ())"#),
    (#"{"popFrom":{"id":-1}}"#, ".popFrom(id: -1)"),
    // A binding reads as the feature sends it: its field as a key path.
    (
      #"{"binding":{"_0":{"set":{"field":"syncUp","value":{"title":"Design"}}}}}"#,
      #".binding(.set(\.syncUp, (title: "Design")))"#
    ),
    (#"{"set":{"field":"focus","value":null}}"#, #".set(\.focus, nil)"#),
    // A field that is not an identifier, or a set of another shape, is dumped as it stands.
    (#"{"set":{"field":"a b","value":1}}"#, #".set(field: "a b", value: 1)"#),
    (#"{"set":{"field":"title"}}"#, #".set(field: "title")"#),
    (#"{"set":{"field":1,"value":2}}"#, #".set(field: 1, value: 2)"#),
    ("not json", #""not json""#),
    ("12", "12"),
  ]

  @Test(arguments: payloads)
  func dumpsAsCustomDumpPrints(_ payload: String, _ expected: String) {
    #expect(ActionDump.text(ofPayload: payload) == expected)
  }

  /// Text from a journal can neither end its literal nor bring a control character along: the
  /// quote and backslash are escaped, every character that is not printable is `\u{…}`.
  @Test func journalTextStaysInsideItsLiteral() {
    let hostile = "\"); \u{1B}[31mred\u{202E}\\\n"
    let payload = String(
      decoding: try! JSONSerialization.data(withJSONObject: ["say": ["_0": hostile]]),
      as: UTF8.self)
    #expect(
      ActionDump.text(ofPayload: payload) == #".say("\"); \u{1B}[31mred\u{202E}\\\n")"#)
    let named = String(
      decoding: try! JSONSerialization.data(withJSONObject: ["a b\u{7}": ["_0": 1]]),
      as: UTF8.self)
    #expect(ActionDump.text(ofPayload: named) == #"("a b\u{7}": (1))"#)
  }

  /// A binding's field from a journal can neither end the key path nor bring a control
  /// character along: only an identifier is written as one.
  @Test func aBindingsFieldFromAJournalIsAKeyPathOnlyWhenItIsAnIdentifier() {
    for field in ["title\u{1B}[31m", "a.b", "x)", "\u{202E}title", ""] {
      let payload = String(
        decoding: try! JSONSerialization.data(
          withJSONObject: ["set": ["field": field, "value": 1]], options: .sortedKeys),
        as: UTF8.self)
      let dump = ActionDump.text(ofPayload: payload)
      #expect(!dump.contains("\\."), "\(dump)")
      #expect(dump.unicodeScalars.allSatisfy { SessionID.isPrintableScalar($0) }, "\(dump)")
    }
  }

  /// What a recording store writes for a form's bindings reads as the form sends them.
  @Test func theRecordedBindingsOfAFormReadAsTheFormSendsThem() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    func dump(_ action: BindingForm.Action) throws -> String {
      ActionDump.text(ofPayload: String(decoding: try encoder.encode(action), as: UTF8.self))
    }
    #expect(try dump(.binding(.set(\.title, "Retro"))) == #".binding(.set(\.title, "Retro"))"#)
    #expect(try dump(.binding(.set(\.note, nil))) == #".binding(.set(\.note, nil))"#)
    #expect(
      try dump(.binding(.set(\.details, BindingForm.State.Details())))
        == #".binding(.set(\.details, (title: "")))"#)
  }

  /// What a recording store writes for the seed's actions reads as CustomDump prints them.
  @Test func theRecordedActionsOfAStackReadAsCustomDumpPrintsThem() throws {
    enum Screen: Codable { case counter(Counter) }
    enum Counter: Codable { case incrementButtonTapped, set(to: Int, animated: Bool) }
    enum Action: Codable { case path(StackAction<Screen, Screen>) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    func dump(_ action: Action) throws -> String {
      ActionDump.text(ofPayload: String(decoding: try encoder.encode(action), as: UTF8.self))
    }
    let element = Action.path(.element(id: 2, action: .counter(.incrementButtonTapped)))
    #expect(try dump(element) == ".path(.element(id: #2, action: .counter(.incrementButtonTapped)))")
    #expect(try dump(.path(.popFrom(id: 0))) == ".path(.popFrom(id: #0))")
    // Labelled values come in the order the journal stores them: sorted.
    let set = Action.path(.element(id: 1, action: .counter(.set(to: 3, animated: true))))
    #expect(
      try dump(set) == ".path(.element(id: #1, action: .counter(.set(animated: true, to: 3))))")
  }

  /// Random JSON of random text (controls, bidi marks, quotes, backslashes, letters of other
  /// scripts) dumps to one line of printable characters whose string literals read back as the
  /// strings they came from.
  @Test(arguments: 0..<200)
  func randomJournalTextDumpsToPrintableText(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let pieces: [String] = [
      "a", "Z", "_0", "é", "e\u{301}", "字", "\"", "\\", "\n", "\u{1B}[2J", "\u{0}",
      "\u{202E}", "\u{2028}", "\u{FEFF}", "\u{9F}", " ", "#", "(", ")",
    ]
    func text() -> String {
      (0..<Int.random(in: 0...6, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }.joined()
    }
    func value(_ depth: Int) -> Any {
      switch Int.random(in: 0...(depth > 4 ? 2 : 5), using: &generator) {
      case 0: return Int.random(in: -1000...1000, using: &generator)
      case 1: return text()
      case 2: return NSNull()
      case 3: return (0..<Int.random(in: 0...3, using: &generator)).map { _ in value(depth + 1) }
      default:
        var object: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
          object[Bool.random(using: &generator) ? "_\(Int.random(in: 0...3, using: &generator))" : text()] =
            value(depth + 1)
        }
        return object
      }
    }
    let root = ["action": value(0)]
    // The strings the payload holds (a key given twice kept its last value).
    func strings(_ value: Any) -> [String] {
      switch value {
      case let string as String: [string]
      case let array as [Any]: array.flatMap(strings)
      case let object as [String: Any]: object.values.flatMap(strings)
      default: []
      }
    }
    let payload = String(
      decoding: try JSONSerialization.data(withJSONObject: root, options: .sortedKeys),
      as: UTF8.self)
    let dump = ActionDump.text(ofPayload: payload)
    #expect(dump.unicodeScalars.allSatisfy { SessionID.isPrintableScalar($0) }, "\(dump)")
    // Each string appears as a Swift literal of itself.
    for string in strings(root) {
      var literal = ""
      for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": literal += "\\\""
        case "\\": literal += "\\\\"
        case "\n": literal += "\\n"
        default:
          literal += SessionID.isPrintableScalar(scalar)
            ? String(scalar) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
      }
      #expect(dump.contains("\"" + literal + "\""), "\(string.debugDescription) in \(dump)")
    }
  }
}
