import Foundation
import StackJournalCore

/// What a presented destination is and where it sits, read from its record (see
/// `StackRecord.isPresentation`) without the app's types: `alert "42 is a good number." over #1
/// of path`, `settings at the root (destination)`.
struct ShownPresentation {
  /// What kind of thing is presented, as the JSON's shape says.
  enum Kind: String {
    /// An `AlertState`: `{"title": …}` with `message` and `buttons` at most.
    case alert
    /// A `ConfirmationDialogState`: an alert's members and `titleVisibility`.
    case confirmationDialog
    /// Anything else: a child feature, a destination's case.
    case destination
  }

  /// The record's path: where the `@Presents` property sits.
  var path: String
  /// The stack and element ID the presentation sits over: the last `[#N]` of its path.
  var over: (stack: String, id: Int)?
  /// The presentation it sits inside, when its path continues one presented at that moment
  /// past the element it sits over.
  var inside: String?
  var kind: Kind
  /// The case of what is presented (`settings`, `alert`), when it is in an enum's case.
  var caseName: String?
  /// An alert's or dialog's title.
  var title: String?
  /// What is presented, without the enum case wrapper.
  var state: JSONValue

  /// Reads the presentation `record`, among the paths of everything presented at the same
  /// moment (to say which one it is inside).
  init(_ record: StackRecord, amongPresented paths: [String] = []) {
    path = record.path
    let element = record.elements.first
    let value = element.map { JSONValue(lenient: $0.state) } ?? .null
    // A destination's case wraps what it presents: `{"confirmReset": {"_0": {"title": …}}}`.
    var inner = value
    var caseName: String?
    if case .object(let members) = value, members.count == 1, Self.kind(of: value) == nil {
      caseName = members[0].0
      inner = members[0].1
      if case .object(let payload) = inner, payload.count == 1, payload[0].0 == "_0" {
        inner = payload[0].1
      }
    }
    self.caseName = caseName
    state = inner
    kind = Self.kind(of: inner) ?? .destination
    if kind != .destination, case .string(let title)? = inner["title"] {
      self.title = title
    }
    let components = StackPath.components(of: record.path)
    if let last = components.lastIndex(where: {
      if case .element = $0 { return true } else { return false }
    }), case .element(let id) = components[last] {
      over = (StackPath.text(Array(components[..<last])), id)
    }
    let elementPrefix = over.map { StackPath.appending(.element($0.id), to: $0.stack) } ?? ""
    inside = paths.filter { other in
      other != record.path && other.count > elementPrefix.count
        && Self.path(record.path, continues: other)
    }.max { $0.count < $1.count }
  }

  /// What `change`, a presentation's change, presents after it: what it pushes or changes, at its
  /// path (nothing for a dismissal).
  init(_ change: StackChange) {
    self.init(
      StackRecord(
        path: change.path, nextID: change.nextID, elements: change.pushed + change.changed,
        isPresentation: true))
  }

  /// The kind of an alert's or a dialog's JSON, `nil` for anything else.
  private static func kind(of value: JSONValue) -> Kind? {
    guard case .object(let members) = value, case .string? = value["title"] else { return nil }
    let keys = Set(members.map(\.0))
    if keys.isSubset(of: ["buttons", "message", "title"]) { return .alert }
    if keys.contains("titleVisibility"),
      keys.isSubset(of: ["buttons", "message", "title", "titleVisibility"])
    {
      return .confirmationDialog
    }
    return nil
  }

  /// Whether `path` lies inside what is presented at `other`: it starts with `other` followed by
  /// a `.` or a `[`.
  private static func path(_ path: String, continues other: String) -> Bool {
    guard path.utf8.count > other.utf8.count, path.hasPrefix(other) else { return false }
    let next = path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: other.utf8.count)]
    return next == UInt8(ascii: ".") || next == UInt8(ascii: "[")
  }

  /// What is presented, for people: `alert "Saved"`, `confirmation dialog "Delete?"`,
  /// `settings`, or `destination` when it has no case.
  var what: String {
    let titled = title.map { " " + JSONValue.quoted($0) } ?? ""
    switch kind {
    case .alert: return "alert" + titled
    case .confirmationDialog: return "confirmation dialog" + titled
    case .destination: return caseName.map(Self.name) ?? "destination"
    }
  }

  /// Where it is, for people: `over #3 of path`, `inside the presented destination`, `at the
  /// root`.
  var whereText: String {
    if let inside { return "inside the presented \(StackRendering.name(inside))" }
    if let over { return "over #\(over.id) of \(StackRendering.name(over.stack))" }
    return "at the root"
  }

  /// One line: `alert "42 is a good number." over #1 of path  (path[#1].numberFact.alert)`.
  var line: String {
    "\(what) \(whereText)  (\(path))"
  }

  /// `{"path", "kind", "case", "title", "over": {"stack", "id"} or null, "inside", "state"}`.
  var json: JSONValue {
    .object([
      ("path", .string(path)),
      ("kind", .string(kind.rawValue)),
      ("case", .optional(caseName)),
      ("title", .optional(title)),
      ("over", over.map { .object([("stack", .string($0.stack)), ("id", .int($0.id))]) } ?? .null),
      ("inside", .optional(inside)),
      ("state", state),
    ])
  }

  /// A case name as it is when it reads as a name, quoted and escaped otherwise.
  private static func name(_ text: String) -> String {
    !text.isEmpty
      && text.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
      }
      ? text : JSONValue.quoted(text)
  }

  /// The presentations among `records`, each read among the others.
  static func all(in records: [StackRecord]) -> [ShownPresentation] {
    let presented = records.filter(\.isPresentation)
    let paths = presented.map(\.path)
    return presented.map { ShownPresentation($0, amongPresented: paths) }
  }

  /// The lines of what is presented at a moment, for people; none when nothing is.
  static func lines(_ records: [StackRecord], on terminal: Terminal) -> [String] {
    let shown = all(in: records)
    guard !shown.isEmpty else { return [] }
    return [terminal.styled("presented", .bold)] + shown.map { "  " + $0.line }
  }
}
