import Testing

@testable import StackJournalCLI
import StackJournalCore

/// JSON text read through the one tokenizer and printed back as written.
struct JSONValueTests {
  /// Text, and its compact form when it is one JSON value.
  static let documents: [(String, String?)] = [
    ("null", "null"),
    (" true ", "true"),
    ("false", "false"),
    ("0", "0"),
    ("-0", "-0"),
    ("1.50", "1.50"),
    ("1E+2", "1E+2"),
    ("-12e-3", "-12e-3"),
    (#""a\"b\u0041""#, #""a\"bA""#),
    (#"{"b": [1, 2, {"c": null}], "a": "x"}"#, #"{"b":[1,2,{"c":null}],"a":"x"}"#),
    ("[]", "[]"),
    ("{ }", "{}"),
    ("01", nil),
    ("1.", nil),
    (".5", nil),
    ("+1", nil),
    ("1e999", nil),
    ("tru", nil),
    (#"{"a" 1}"#, nil),
    (#"{"a":1,}"#, nil),
    ("[1,]", nil),
    ("[1] 2", nil),
    (#""open"#, nil),
    ("", nil),
  ]

  @Test(arguments: documents)
  func parsesExactlyOneValue(_ text: String, _ compact: String?) {
    #expect(JSONValue(parsing: text)?.compact == compact)
  }

  @Test func keepsKeysInOrderAndPrettyPrintsByTwoSpaces() {
    let value = JSONValue(parsing: #"{"z":1,"a":[true]}"#)
    #expect(value?.pretty == "{\n  \"z\": 1,\n  \"a\": [\n    true\n  ]\n}")
  }

  @Test func textThatIsNotJSONIsKeptAsAString() {
    #expect(JSONValue(lenient: "not json") == .string("not json"))
  }
}
