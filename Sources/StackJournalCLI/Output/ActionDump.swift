import StackJournalCore

/// An action's payload as a TCA user reads an action — the form CustomDump prints and
/// `_printChanges()` shows, `.path(.element(id: #4, action: .numberFact(.factButtonTapped)))` —
/// read from the JSON a recording store wrote, without the app's types.
///
/// Swift's synthesized `Codable` writes an enum case as an object with one member, the case's
/// name, holding an object of its associated values: `_0`, `_1`, … for unlabelled ones, their
/// labels otherwise, and nothing for a case without values. So:
///
/// * `{"case":{}}` is `.case`;
/// * `{"case":{"_0":v}}` is `.case(v)`; `{"case":{"label":v,"_1":w}}` is `.case(label: v, w)`;
/// * any other object is a value with fields, `(a: 1, b: "x")`, its type unknown;
/// * arrays are `[…]`, strings Swift literals (every character that is not printable escaped as
///   `\u{…}`, so a journal's text can neither end the literal nor reach a terminal as a
///   control), `null` is `nil`.
///
/// Without the types, two things cannot be told: the order of labelled values (the journal
/// stores keys sorted, so they come in alphabetical order), and a struct with one field that
/// holds an object from an enum case (`{"child":{"x":1}}` reads `.child(x: 1)`). The stack
/// actions of this package are known: `element(id:action:)`, `popFrom(id:)` and
/// `push(id:state:)` come with their labels in order and their IDs as `#4`, as CustomDump shows
/// a `StackElementID`. So is a binding action, `{"set":{"field":"title","value":"Retro"}}`, which
/// reads as the `.set(\.title, "Retro")` a feature sends.
enum ActionDump {
  /// The dump of a payload; text that is not JSON is dumped as a string.
  static func text(ofPayload payload: String) -> String {
    var text = ""
    write(JSONValue(lenient: payload), to: &text)
    return text
  }

  static func write(_ value: JSONValue, to text: inout String) {
    switch value {
    case .null: text += "nil"
    case .bool(let flag): text += flag ? "true" : "false"
    case .number(let number): text += number
    case .string(let string): writeLiteral(string, to: &text)
    case .array(let values):
      text += "["
      for (index, element) in values.enumerated() {
        if index > 0 { text += ", " }
        write(element, to: &text)
      }
      text += "]"
    case .object(let members):
      if members.count == 1, case .object(let values) = members[0].1,
        isCaseName(members[0].0)
      {
        writeCase(members[0].0, values, to: &text)
      } else {
        text += "("
        writeFields(members, to: &text)
        text += ")"
      }
    }
  }

  /// `.name`, or `.name(values…)`.
  private static func writeCase(
    _ name: String, _ values: [(String, JSONValue)], to text: inout String
  ) {
    text += "."
    writeName(name, to: &text)
    guard !values.isEmpty else { return }
    text += "("
    if let (field, value) = bindingValues(name, values) {
      text += "\\."
      text += field
      text += ", "
      write(value, to: &text)
    } else if let known = stackActionValues(name, values) {
      writeFields(known, to: &text)
    } else {
      writeFields(ordered(values), to: &text)
    }
    text += ")"
  }

  /// Values in the order the case declares them where that shows: `_0`, `_1`, … by number,
  /// labels (sorted, as stored) where they stand.
  private static func ordered(_ values: [(String, JSONValue)]) -> [(String, JSONValue)] {
    let positional = values.compactMap { name, value in position(name).map { ($0, name, value) } }
    guard !positional.isEmpty else { return values }
    var result = values
    var slots = values.indices.filter { position(values[$0].0) != nil }.makeIterator()
    for (_, name, value) in positional.sorted(by: { $0.0 < $1.0 }) {
      if let slot = slots.next() { result[slot] = (name, value) }
    }
    return result
  }

  /// A stack action's values, labels in order and IDs as `#N`; `nil` for anything else.
  private static func stackActionValues(_ name: String, _ values: [(String, JSONValue)])
    -> [(String, JSONValue)]?
  {
    let labels: [String]
    switch name {
    case "element": labels = ["id", "action"]
    case "popFrom": labels = ["id"]
    case "push": labels = ["id", "state"]
    default: return nil
    }
    guard values.count == labels.count,
      Set(values.map(\.0)) == Set(labels),
      case .number(let id)? = values.first(where: { $0.0 == "id" })?.1,
      !id.isEmpty, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return labels.map { label in
      label == "id" ? ("id", .number("#" + id)) : (label, values.first { $0.0 == label }!.1)
    }
  }

  /// A binding action's field and value, `{"set":{"field":"title","value":v}}` read as
  /// `.set(\.title, v)`; `nil` for anything else, or a field that is not an identifier (then
  /// dumped as the object it is, its text in a literal).
  private static func bindingValues(_ name: String, _ values: [(String, JSONValue)])
    -> (field: String, value: JSONValue)?
  {
    guard name == "set", values.count == 2,
      case .string(let field)? = values.first(where: { $0.0 == "field" })?.1,
      let value = values.first(where: { $0.0 == "value" })?.1,
      isCaseName(field)
    else { return nil }
    return (field, value)
  }

  /// `label: value, …`, leaving out the labels of `_0`, `_1`, ….
  private static func writeFields(_ members: [(String, JSONValue)], to text: inout String) {
    for (index, (name, value)) in members.enumerated() {
      if index > 0 { text += ", " }
      if position(name) == nil {
        writeName(name, to: &text)
        text += ": "
      }
      write(value, to: &text)
    }
  }

  /// The number of an unlabelled value's key, `_0` → 0.
  private static func position(_ key: String) -> Int? {
    guard key.hasPrefix("_"), key.count > 1, key.count <= 4 else { return nil }
    return Int(key.dropFirst())
  }

  /// Whether a key can be a case's name: an identifier, as Swift writes one.
  private static func isCaseName(_ key: String) -> Bool {
    guard let first = key.unicodeScalars.first, position(key) == nil else { return false }
    return (first == "_" || first.properties.isXIDStart)
      && key.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isXIDContinue }
  }

  /// A name as it stands, or as a string literal when it is not an identifier.
  private static func writeName(_ name: String, to text: inout String) {
    if isCaseName(name) {
      text += name
    } else {
      writeLiteral(name, to: &text)
    }
  }

  /// A Swift string literal, with `"`, `\` and every character that is not printable escaped.
  private static func writeLiteral(_ string: String, to text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      default:
        if SessionID.isPrintableScalar(scalar) {
          text.unicodeScalars.append(scalar)
        } else {
          text += SessionID.escapedScalar(scalar)
        }
      }
    }
    text += "\""
  }
}
