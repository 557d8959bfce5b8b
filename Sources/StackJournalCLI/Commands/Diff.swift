import ArgumentParser
import Foundation
import StackJournalCore

extension StackJournalCommand {
  /// `stackjournal diff SESSION FROM TO`: what changed on the stacks between two sequences.
  public struct Diff: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Show what changed on a session's stacks between two sequences.",
      usage: "stackjournal diff [--db <path>] <session> <from> <to> [--json]",
      discussion: """
        Compares the stacks at FROM and at TO: elements pushed, popped and changed, with the \
        fields of a changed element's state that differ; then what was presented, dismissed or \
        changed where (an alert over an element, a sheet at the root). Needs no app code.

        --json prints {"session", "from", "to", "stacks": […], "presentations": [{"path", \
        "change" ("presented", "dismissed" or "changed"), "before", "after"}]}, "before" and \
        "after" as `show --json` prints a presentation, or null.
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var sessionArgument: SessionArgument

    /// FROM and TO as given. Taken as every input left over, so that `-1` reaches `validate()`
    /// as a sequence, as `parsing: .unconditional` makes it reach it for an option (see
    /// ``NumberOption``): a positional argument skips dash-prefixed inputs, so `diff S -1 3`
    /// would read 3 as FROM and report TO missing.
    @Argument(
      parsing: .allUnrecognized,
      help: ArgumentHelp("The earlier sequence, then the later one.", valueName: "from> <to"))
    var sequences: [String] = []

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// The earlier sequence.
    var from: Int64 { Int64(sequences[0])! }

    /// The later sequence.
    var to: Int64 { Int64(sequences[1])! }

    /// Checks that FROM and TO are two sequences in order.
    public func validate() throws {
      for (index, text) in sequences.enumerated() where Int64(text) == nil {
        guard !text.hasPrefix("-") || text.count == 1 else {
          throw ValidationError("Unknown option '\(text)'.")
        }
        let name = index == 0 ? "FROM" : index == 1 ? "TO" : "a sequence"
        throw ValidationError("\(name) '\(text)' is not a sequence: give a whole number.")
      }
      for (index, name) in ["FROM", "TO"].enumerated() where index < sequences.count {
        try NumberOption.requireSequence(Int64(sequences[index]), name)
      }
      switch sequences.count {
      case 0: throw ValidationError("Missing expected argument '<from>'.")
      case 1: throw ValidationError("Missing expected argument '<to>'.")
      case 2: break
      default: throw ValidationError("Unexpected argument '\(sequences[2])'.")
      }
      if from > to { throw ValidationError("FROM (\(from)) is after TO (\(to)); swap them.") }
    }

    /// Prints the differences.
    public func run() async throws {
      try await reportingErrors {
        let journal = try await database.openReadOnly()
        let session = sessionArgument.id
        _ = try await journal.requireSession(session)
        try await journal.requireSequence(from, session: session, option: "FROM")
        try await journal.requireSequence(to, session: session, option: "TO")
        let before = try await journal.stacks(session: session, at: from)
        let after = try await journal.stacks(session: session, at: to)
        let changes = StackChangeBetweenMoments.compare(
          before.filter { !$0.isPresentation }, after.filter { !$0.isPresentation })
        let presentations = PresentationChangeBetweenMoments.compare(before, after)
        try output.print {
          JSONValue.object([
            ("session", .string(session.rawValue)), ("from", .int(from)), ("to", .int(to)),
            ("stacks", .array(changes.map(\.json))),
            ("presentations", .array(presentations.map(\.json))),
          ])
        } text: { out in
          out.line(out.styled("Session \(session): sequence \(from) → \(to)", .bold))
          guard !changes.isEmpty || !presentations.isEmpty else {
            out.line("The stacks are the same.")
            return
          }
          for change in changes { change.lines(on: out).forEach(out.line) }
          if !presentations.isEmpty {
            out.line(out.styled("presented", .bold))
            for change in presentations { out.line("  " + change.line) }
          }
        }
      }
    }
  }
}

/// How what is presented at one place differs between two moments.
struct PresentationChangeBetweenMoments {
  var path: String
  var before: ShownPresentation?
  var after: ShownPresentation?

  static func compare(_ before: [StackRecord], _ after: [StackRecord])
    -> [PresentationChangeBetweenMoments]
  {
    let old = Dictionary(
      ShownPresentation.all(in: before).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let new = Dictionary(
      ShownPresentation.all(in: after).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let oldRecords = Dictionary(
      before.filter(\.isPresentation).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let newRecords = Dictionary(
      after.filter(\.isPresentation).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    return Set(old.keys).union(new.keys).sorted().compactMap { path in
      guard oldRecords[path] != newRecords[path] else { return nil }
      return PresentationChangeBetweenMoments(path: path, before: old[path], after: new[path])
    }
  }

  /// `presented`, `dismissed` or `changed`.
  var change: String {
    before == nil ? "presented" : after == nil ? "dismissed" : "changed"
  }

  /// `presented alert "Saved" over #1 of path  (path[#1].alert)`; a change shows what was
  /// presented before.
  var line: String {
    switch (before, after) {
    case (nil, let after?): "presented " + after.line
    case (let before?, nil): "dismissed " + before.line
    case (let before?, let after?):
      "changed " + after.line + " (was \(before.what): \(before.state.compact))"
    case (nil, nil): path
    }
  }

  var json: JSONValue {
    .object([
      ("path", .string(path)),
      ("change", .string(change)),
      ("before", before?.json ?? .null),
      ("after", after?.json ?? .null),
    ])
  }
}

/// How one stack differs between two moments.
struct StackChangeBetweenMoments {
  var path: String
  var before: StackRecord?
  var after: StackRecord?
  var pushed: [StoredElement]
  var popped: [StoredElement]
  var changed: [(before: StoredElement, after: StoredElement)]

  static func compare(_ before: [StackRecord], _ after: [StackRecord]) -> [StackChangeBetweenMoments] {
    let old = Dictionary(before.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let new = Dictionary(after.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    var result: [StackChangeBetweenMoments] = []
    for path in Set(old.keys).union(new.keys).sorted() {
      let a = old[path]
      let b = new[path]
      guard a != b else { continue }
      let oldElements = Dictionary(
        (a?.elements ?? []).map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
      let newIDs = Set(b?.ids ?? [])
      var pushed: [StoredElement] = []
      var changed: [(StoredElement, StoredElement)] = []
      for element in b?.elements ?? [] {
        if let previous = oldElements[element.id] {
          if previous != element { changed.append((previous, element)) }
        } else {
          pushed.append(element)
        }
      }
      let popped = (a?.elements ?? []).filter { !newIDs.contains($0.id) }
      result.append(
        StackChangeBetweenMoments(
          path: path, before: a, after: b, pushed: pushed, popped: popped, changed: changed))
    }
    return result
  }

  var json: JSONValue {
    .object([
      ("path", .string(path)),
      ("created", .bool(before == nil)),
      ("removed", .bool(after == nil)),
      (
        "nextID",
        .object([
          ("from", before.map { .int($0.nextID.generation) } ?? .null),
          ("to", after.map { .int($0.nextID.generation) } ?? .null),
        ])
      ),
      (
        "ids",
        .object([
          ("from", .array((before?.ids ?? []).map { .int($0.generation) })),
          ("to", .array((after?.ids ?? []).map { .int($0.generation) })),
        ])
      ),
      ("pushed", .array(pushed.map(StackRendering.elementJSON))),
      ("popped", .array(popped.map(StackRendering.elementJSON))),
      (
        "changed",
        .array(
          changed.map { pair in
            .object([
              ("id", .int(pair.after.id.generation)),
              ("case", .optional(pair.after.caseName)),
              ("from", StackRendering.state(pair.before)),
              ("to", StackRendering.state(pair.after)),
              (
                "fields",
                .array(
                  FieldDifference.between(
                    StackRendering.state(pair.before), StackRendering.state(pair.after)
                  ).map(\.json))
              ),
            ])
          })
      ),
    ])
  }

  func lines(on out: Terminal) -> [String] {
    var header = out.styled(StackRendering.name(path), .bold)
    switch (before, after) {
    case (nil, let after?) where StackRendering.isRoutes(after): header += "  (new routes)"
    case (_?, nil): header += "  (stack gone)"
    case (let before?, let after?) where StackRendering.isRoutes(after):
      header += "  (routes, \(before.elements.count) → \(after.elements.count))"
    case (nil, let after?): header += "  (new stack, next ID \(after.nextID))"
    case (let before?, let after?):
      header +=
        before.nextID == after.nextID
        ? "  (next ID \(after.nextID))" : "  (next ID \(before.nextID) → \(after.nextID))"
    default: break
    }
    var lines = [header]
    for element in pushed {
      let shown = StackRendering.display(element)
      lines.append(out.styled("  + \(element.id) \(shown.kind)", .green) + "  " + shown.state)
    }
    for element in popped {
      let shown = StackRendering.display(element)
      lines.append(out.styled("  - \(element.id) \(shown.kind)", .red) + "  " + shown.state)
    }
    for (old, new) in changed {
      // Each element's JSON parsed once.
      let oldShown = StackRendering.ShownElement(old)
      let newShown = StackRendering.ShownElement(new)
      let before = oldShown.display
      let after = newShown.display
      let screenBefore = oldShown.route?.screenCaseText
      let screenAfter = newShown.route?.screenCaseText
      var kind = before.kind == after.kind ? after.kind : "\(before.kind) → \(after.kind)"
      if let screenAfter {
        kind += "  " + (screenBefore == screenAfter || screenBefore == nil
          ? screenAfter : "\(screenBefore!) → \(screenAfter)")
      }
      lines.append(out.styled("  ~ \(new.id) \(kind)", .yellow))
      for field in FieldDifference.between(oldShown.state, newShown.state) {
        lines.append("      " + field.text(on: out))
      }
    }
    if let before, let after, before.ids != after.ids,
      pushed.isEmpty && popped.isEmpty
    {
      lines.append("  order \(before.ids) → \(after.ids)")
    }
    return lines
  }
}

/// One field of an element's state that differs between two moments.
struct FieldDifference {
  var path: String
  var before: JSONValue?
  var after: JSONValue?

  /// The leaves of two JSON values that differ, by path (`count`, `items[2].name`).
  static func between(_ a: JSONValue, _ b: JSONValue) -> [FieldDifference] {
    var result: [FieldDifference] = []
    func walk(_ path: String, _ a: JSONValue?, _ b: JSONValue?) {
      switch (a, b) {
      case (.object(let x)?, .object(let y)?):
        var keys = x.map(\.0)
        for (key, _) in y where !keys.contains(key) { keys.append(key) }
        for key in keys {
          walk(
            path.isEmpty ? key : path + "." + key, x.first { $0.0 == key }?.1,
            y.first { $0.0 == key }?.1)
        }
      case (.array(let x)?, .array(let y)?):
        for index in 0..<max(x.count, y.count) {
          walk(
            path + "[\(index)]", index < x.count ? x[index] : nil,
            index < y.count ? y[index] : nil)
        }
      default:
        if a != b {
          result.append(FieldDifference(path: path.isEmpty ? "(state)" : path, before: a, after: b))
        }
      }
    }
    walk("", a, b)
    return result
  }

  var json: JSONValue {
    .object([
      ("path", .string(path)), ("from", before ?? .null), ("to", after ?? .null),
      ("added", .bool(before == nil)), ("removed", .bool(after == nil)),
    ])
  }

  func text(on out: Terminal) -> String {
    switch (before, after) {
    case (nil, let after?): return out.styled("+ \(path): \(after.compact)", .green)
    case (let before?, nil): return out.styled("- \(path): \(before.compact)", .red)
    case (let before?, let after?): return "\(path): \(before.compact) → \(after.compact)"
    default: return path
    }
  }
}
