import Foundation
import StackJournalCore
import StackNavigation

/// How stacks, elements and deltas print, for people and as JSON.
enum StackRendering {
  /// A route of a coordinator's routes, read from a stored element whose state has the shape a
  /// route is stored in: `{"sheet":{"embedInNavigationView":true,"screen":{…}}}`.
  struct RouteElement {
    /// `push`, `sheet` or `cover`.
    var style: String
    /// Whether a presented screen is embedded in its own navigation.
    var embedInNavigationView: Bool
    /// The case of an enum screen, e.g. `numbersList`.
    var screenCase: String?
    /// The screen's own state, without its case wrapper.
    var screen: JSONValue

    /// The style as people read it: `sheet (navigation)` for a sheet that screens can be pushed
    /// from.
    var styleText: String {
      embedInNavigationView ? "\(style) (navigation)" : style
    }

    /// The screen's case for people: as it is when it reads as a name, quoted and escaped
    /// otherwise, so stored text never reaches a terminal as control codes.
    var screenCaseText: String? {
      screenCase.map { name in
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic
          || ("0"..."9").contains($0) || $0 == "_") }
          ? name : JSONValue.quoted(name)
      }
    }
  }

  /// A stored element read for printing: its JSON parsed once, into the route it holds (when
  /// shaped as one) and its own state.
  struct ShownElement {
    /// The element as stored.
    var element: StoredElement
    /// The route it holds, or `nil` when it is not shaped as a route.
    var route: RouteElement?
    /// Its own state: the stored JSON without the enum case wrapper, and for a route, its
    /// screen's own state.
    var state: JSONValue

    /// Reads an element, parsing its JSON once.
    init(_ element: StoredElement) {
      self.element = element
      let value = JSONValue(lenient: element.state)
      route = StackRendering.route(caseName: element.caseName, value)
      state = route?.screen ?? StackRendering.unwrapped(caseName: element.caseName, value)
    }

    /// `{"id": 0, "case": "counter", "state": {…}}`; a route adds
    /// `"route": {"style": "sheet", "embedInNavigationView": true, "screen": "numbersList"}`.
    var json: JSONValue {
      var members: [(String, JSONValue)] = [
        ("id", .int(element.id.generation)),
        ("case", .optional(element.caseName)),
        ("state", state),
      ]
      if let route {
        members.append(
          (
            "route",
            .object([
              ("style", .string(route.style)),
              ("embedInNavigationView", .bool(route.embedInNavigationView)),
              ("screen", .optional(route.screenCase)),
            ])
          ))
      }
      return .object(members)
    }

    /// The case column and the state for people: for a route, its style, then its screen's
    /// case before its state.
    var display: (kind: String, state: String) {
      guard let route else { return (element.caseName ?? "-", state.compact) }
      return (
        route.styleText,
        route.screenCaseText.map { "\($0)  " + route.screen.compact } ?? route.screen.compact
      )
    }
  }

  /// The route a stored element holds, or `nil` when it is not shaped as a route.
  static func route(_ element: StoredElement) -> RouteElement? {
    ShownElement(element).route
  }

  /// The route in an element's parsed JSON, or `nil` when it is not shaped as a route.
  private static func route(caseName: String?, _ value: JSONValue) -> RouteElement? {
    guard let style = caseName, ["push", "sheet", "cover"].contains(style),
      case .object(let members) = value, members.count == 1,
      case .object(let fields) = members[0].1,
      fields.allSatisfy({ $0.0 == "screen" || $0.0 == "embedInNavigationView" }),
      let screen = fields.first(where: { $0.0 == "screen" })?.1
    else { return nil }
    var embed = false
    if case .bool(true)? = fields.first(where: { $0.0 == "embedInNavigationView" })?.1 {
      embed = true
    }
    guard case .object(let cases) = screen, cases.count == 1 else {
      return RouteElement(
        style: style, embedInNavigationView: embed, screenCase: nil, screen: screen)
    }
    var inner = cases[0].1
    if case .object(let payload) = inner, payload.count == 1, payload[0].0 == "_0" {
      inner = payload[0].1
    }
    return RouteElement(
      style: style, embedInNavigationView: embed, screenCase: cases[0].0, screen: inner)
  }

  /// The element's own state: the stored JSON without the enum case wrapper
  /// (`{"counter":{"_0":{"count":1}}}` gives `{"count":1}`), and for a route, its screen's own
  /// state.
  static func state(_ element: StoredElement) -> JSONValue {
    ShownElement(element).state
  }

  /// An element's parsed JSON without the enum case wrapper.
  private static func unwrapped(caseName: String?, _ value: JSONValue) -> JSONValue {
    guard let caseName, case .object(let members) = value,
      members.count == 1, members[0].0 == caseName
    else { return value }
    let inner = members[0].1
    if case .object(let fields) = inner, fields.count == 1, fields[0].0 == "_0" {
      return fields[0].1
    }
    return inner
  }

  /// `{"id": 0, "case": "counter", "state": {…}}`; a route adds
  /// `"route": {"style": "sheet", "embedInNavigationView": true, "screen": "numbersList"}`.
  static func elementJSON(_ element: StoredElement) -> JSONValue {
    ShownElement(element).json
  }

  /// The case column and the state of an element for people: for a route, its style, then its
  /// screen's case before its state.
  static func display(_ element: StoredElement) -> (kind: String, state: String) {
    ShownElement(element).display
  }

  /// `{"path": "path", "kind": "stack", "nextID": 3, "elements": […]}`; `kind` is `routes` for a
  /// coordinator's routes, whose IDs are positions, and `presentation` for a presented
  /// destination, which adds `"presented"`: what it presents, as ``ShownPresentation/json``
  /// gives it (without the moment's other presentations, so `inside` is null).
  static func stackJSON(_ stack: StackRecord) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("path", .string(stack.path)),
      ("kind", .string(kind(of: stack))),
      ("nextID", .int(stack.nextID.generation)),
      ("elements", .array(stack.elements.map(elementJSON))),
    ]
    if stack.isPresentation { members.append(("presented", ShownPresentation(stack).json)) }
    return .object(members)
  }

  /// `{"id": 0, "case": …, "state": …}` of what a presentation holds: the case and state as
  /// ``ShownPresentation`` reads them.
  static func presentedElementJSON(_ element: StoredElement) -> JSONValue {
    let shown = ShownPresentation(
      StackRecord(path: "", nextID: 1, elements: [element], isPresentation: true))
    return .object([
      ("id", .int(element.id.generation)), ("case", .optional(shown.caseName)),
      ("state", shown.state),
    ])
  }

  /// What a change to a presentation presents after it (``stackJSON(_:)``'s `presented`), or
  /// null for a stack's change and a dismissal.
  static func presentedJSON(of change: StackChange) -> JSONValue {
    guard change.isPresentation, !change.removed, !(change.pushed + change.changed).isEmpty
    else { return .null }
    return ShownPresentation(change).json
  }

  /// `routes` for a coordinator's routes (a stack that hands out no ID), `stack` otherwise.
  static func kind(nextID: StackElementID) -> String {
    nextID == .routesNextID ? "routes" : "stack"
  }

  /// ``kind(nextID:)``, or `presentation` for a presented destination.
  static func kind(of stack: StackRecord) -> String {
    stack.isPresentation ? "presentation" : kind(nextID: stack.nextID)
  }

  /// ``kind(nextID:)``, or `presentation` for a change to a presented destination.
  static func kind(of change: StackChange) -> String {
    change.isPresentation ? "presentation" : kind(nextID: change.nextID)
  }

  /// Whether a stored stack is a coordinator's routes: its IDs are the routes' positions and it
  /// hands out none (see `StackElementID.routesNextID`).
  static func isRoutes(_ stack: StackRecord) -> Bool {
    stack.nextID == .routesNextID
  }

  /// What a stack's header says after its path: `2 elements, next ID #6`, or `3 routes`.
  static func summary(of stack: StackRecord) -> String {
    let count = stack.elements.count
    if isRoutes(stack) { return "\(count) route\(count == 1 ? "" : "s")" }
    return "\(count) element\(count == 1 ? "" : "s"), next ID \(stack.nextID)"
  }

  /// A stack's path for people: `(root)` for a state that is itself a stack.
  static func name(_ path: String) -> String {
    path.isEmpty ? "(root)" : path
  }

  /// The lines of stacks for people; presentations are left to ``ShownPresentation``.
  static func lines(_ records: [StackRecord], on terminal: Terminal) -> [String] {
    let stacks = records.filter { !$0.isPresentation }
    guard !stacks.isEmpty else { return ["(no stacks)"] }
    var lines: [String] = []
    for stack in stacks {
      lines.append(
        terminal.styled(name(stack.path), .bold)
          + terminal.styled("  " + summary(of: stack), .dim))
      let idWidth = stack.elements.map { $0.id.description.count }.max() ?? 2
      let shown = stack.elements.map(display)
      let caseWidth = shown.map(\.kind.count).max() ?? 1
      for (element, shown) in zip(stack.elements, shown) {
        lines.append(
          "  " + terminal.styled(pad(element.id.description, idWidth), .cyan) + "  "
            + pad(shown.kind, caseWidth) + "  " + shown.state)
      }
    }
    return lines
  }

  /// A one-line summary of what an entry did: `path: +#3 counter, -#1, ~#2`.
  ///
  /// A change that lists no element sets the stack's order or its next ID only (an element
  /// pushed and popped within the action): the summary gives the IDs and next ID it sets. Which
  /// of them moved is ``StackChange/moved(from:)``'s to say, from the stack before, which a line
  /// of the log does not have.
  static func summary(_ delta: StackDelta) -> String {
    delta.changes.map { change in
      if change.isPresentation { return presentationSummary(change) }
      var parts: [String] = []
      if change.removed {
        parts.append("removed")
      } else {
        parts += change.pushed.map { "+\($0.id)\($0.caseName.map { " " + $0 } ?? "")" }
        parts += change.popped.map { "-\($0)" }
        parts += change.changed.map { "~\($0.id)" }
        if parts.isEmpty {
          let ids =
            change.ids.isEmpty ? "none" : change.ids.map(\.description).joined(separator: " ")
          parts.append(
            change.nextID == .routesNextID
              ? "IDs \(ids)" : "IDs \(ids), next ID \(change.nextID)")
        }
      }
      return "\(name(change.path)): " + parts.joined(separator: " ")
    }.joined(separator: "; ")
  }

  /// What a change to a presentation did, for people: `presented alert "Saved" over #1 of
  /// path`, `dismissed what was presented over #1 of path`, `changed the settings presented at
  /// the root`. Without the moment's other presentations, "inside" is not told.
  static func presentationSummary(_ change: StackChange) -> String {
    let shown = ShownPresentation(change)
    if change.removed { return "dismissed what was presented \(shown.whereText) (\(change.path))" }
    if change.pushed.isEmpty, change.changed.isEmpty {
      return "\(change.path): IDs \(change.ids.map(\.description).joined(separator: " "))"
    }
    let verb = change.pushed.isEmpty ? "changed what is presented:" : "presented"
    return "\(verb) \(shown.what) \(shown.whereText) (\(change.path))"
  }

  /// The JSON of a delta, with element states unwrapped; a change to a presentation is marked
  /// `"presentation": true` and says what it presents (``ShownPresentation/json``).
  static func deltaJSON(_ delta: StackDelta) -> JSONValue {
    .array(
      delta.changes.map { (change: StackChange) -> JSONValue in
        // What a presentation holds is read by ``ShownPresentation``, not as a stack's element
        // (an alert's one `title` member is not an enum's case).
        func element(_ stored: StoredElement) -> JSONValue {
          change.isPresentation
            ? StackRendering.presentedElementJSON(stored) : StackRendering.elementJSON(stored)
        }
        var members: [(String, JSONValue)] = [
          ("path", .string(change.path)),
          ("nextID", .int(change.nextID.generation)),
          ("ids", .array(change.ids.map { .int($0.generation) })),
          ("pushed", .array(change.pushed.map(element))),
          ("popped", .array(change.popped.map { .int($0.generation) })),
          ("changed", .array(change.changed.map(element))),
          ("removed", .bool(change.removed)),
          ("presentation", .bool(change.isPresentation)),
        ]
        let presented = presentedJSON(of: change)
        if case .null = presented {} else { members.append(("presented", presented)) }
        return .object(members)
      })
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  static func padLeft(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }
}
