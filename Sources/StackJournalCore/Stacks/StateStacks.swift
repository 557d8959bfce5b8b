import Foundation
import StackNavigation

/// Finds the stacks inside stored JSON — a snapshot's state, a state about to be restored —
/// without the app's types: the one finder of stacks in JSON text.
///
/// A stack encodes as `{"elements":[{"id":N,"state":…},…],"nextID":N}`; its path is rendered as
/// ``StackPath`` renders a coding path (`path`, `tabs[1].path`, `sheets["42"].path`,
/// `path[#3].counter.path`, the `_0` of an unlabeled enum payload left out). The text is
/// indexed in place (``JSONTape``), and rewritten by splicing bytes, never parsed into a tree.
///
/// The verifier compares a snapshot's state with the stacks recorded beside it
/// (``disagreement(state:stacks:)``); restoration writes the recorded stacks into a state
/// (``overlaying(_:on:)``) and cuts a stack at an element that no longer decodes
/// (``cuttingStack(in:at:)``). A live state's stacks are found while it is encoded, by the
/// typed walk (``StackWalk``, through ``StackTracker``), which sees each `StackState` as it
/// encodes itself and needs no JSON to look through.
package enum StateStacks {

  /// A sentence saying how the stacks in `state` differ from `stacks`, or `nil` when they
  /// agree (or the state cannot be parsed, which the caller reports on its own).
  ///
  /// The state is indexed in place (``JSONTape``), not parsed into a tree; an element's state is
  /// compared byte for byte with the stored one, and parsed (both sides, one element) only when
  /// the bytes differ, to compare numbers by value and members in any order.
  package static func disagreement(state: String, stacks: [StackRecord]) -> String? {
    guard let tape = JSONTape(state) else { return nil }
    let found = tape.stacks()
    let inState = Dictionary(found.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    // A presentation encodes as what it presents, with no mark to find it by in the JSON.
    let recorded = Dictionary(
      stacks.lazy.filter { !$0.isPresentation }.map { ($0.path, $0) },
      uniquingKeysWith: { first, _ in first })
    var parts: [String] = []
    for path in Set(inState.keys).union(recorded.keys).sorted() {
      let name = path.isEmpty ? "(root)" : path
      switch (inState[path], recorded[path]) {
      case (nil, _?):
        parts.append("the stacks hold `\(name)`, the state does not")
      case (_?, nil):
        parts.append("the state holds a stack at `\(name)` the stacks do not")
      case (let a?, let b?):
        if a.nextID != Int64(b.nextID.generation) {
          parts.append(
            "`\(name)` has next ID \(a.nextID) in the state, \(b.nextID.generation) in the stacks")
        } else if !a.ids.elementsEqual(b.elements.lazy.map { Int64($0.id.generation) }) {
          let recorded = b.elements.map { $0.id.generation }
          parts.append("`\(name)` holds IDs \(a.ids) in the state, \(recorded) in the stacks")
        } else {
          for (index, element) in b.elements.enumerated()
          where !same(tape.text(a.states[index]), element.state) {
            parts.append(
              "`\(name)` element \(element.id) differs between the state and the stacks")
            break
          }
        }
      default:
        break
      }
      if parts.count >= 3 { break }
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// Whether an element's state in the snapshot's state and its stored state are the same JSON.
  private static func same(_ inState: ArraySlice<UInt8>, _ stored: String) -> Bool {
    if inState.elementsEqual(stored.utf8) { return true }
    guard let a = JSONValue.parse(Array(inState)), let b = JSONValue.parse(stored) else {
      return false
    }
    return a == b
  }

  /// Whether a value has the shape of an encoded stack.
  static func stack(_ tape: JSONTape, _ node: Int)
    -> (nextID: Int64, elements: [(id: Int64, state: Int)])?
  {
    guard let members = tape.members(node), members.count == 2,
      let next = tape.member("nextID", in: members).flatMap(tape.int64),
      let array = tape.member("elements", in: members), tape.first(array) == UInt8(ascii: "[")
    else { return nil }
    var result: [(id: Int64, state: Int)] = []
    for element in tape.children(array) {
      guard let fields = tape.members(element), fields.count == 2,
        let id = tape.member("id", in: fields).flatMap(tape.int64),
        let state = tape.member("state", in: fields)
      else { return nil }
      result.append((id, state))
    }
    return (next, result)
  }

  /// Whether a value has the shape of an encoded routes array: every element one route,
  /// `{"<style>":{"screen":…}}`; returns each route's screen.
  private static func routes(_ tape: JSONTape, _ node: Int) -> [Int]? {
    guard tape.first(node) == UInt8(ascii: "[") else { return nil }
    let array = tape.children(node)
    guard !array.isEmpty else { return nil }
    var screens: [Int] = []
    for element in array {
      guard let route = tape.members(element), route.count == 1,
        StackPath.routeStyles.contains(route[0].key),
        let fields = tape.members(route[0].node),
        let screen = tape.member("screen", in: fields)
      else { return nil }
      screens.append(screen)
    }
    return screens
  }

  fileprivate static func collect(
    _ tape: JSONTape, _ node: Int, path: String, into found: inout [FoundStack]
  ) {
    if let screens = routes(tape, node) {
      // A coordinator's routes: a stack whose IDs are the positions (see `StackPath`).
      found.append(
        FoundStack(
          path: path, node: node, nextID: Int64(StackElementID.routesNextID.generation),
          ids: screens.indices.map(Int64.init), states: tape.children(node)))
      for (position, screen) in screens.enumerated() {
        collect(
          tape, screen, path: StackPath.appending(.element(position), to: path), into: &found)
      }
      return
    }
    if let (nextID, elements) = stack(tape, node) {
      found.append(
        FoundStack(
          path: path, node: node, nextID: nextID, ids: elements.map(\.id),
          states: elements.map(\.state)))
      for element in elements {
        collect(
          tape, element.state, path: StackPath.appending(.element(Int(element.id)), to: path),
          into: &found)
      }
      return
    }
    if let members = tape.members(node) {
      for (key, child) in members {
        let next = key == "_0" ? path : StackPath.appending(.key(key), to: path)
        collect(tape, child, path: next, into: &found)
      }
    } else if tape.first(node) == UInt8(ascii: "[") {
      for (index, child) in tape.children(node).enumerated() {
        collect(tape, child, path: StackPath.appending(.index(index), to: path), into: &found)
      }
    }
  }
}

extension StateStacks {
  /// Where a stack was cut: its coding path, the first element left out and those kept.
  package struct Cut: Equatable, Sendable {
    package var stackCodingPath: [StackPath.Component]
    package var firstSkippedID: StackElementID
    package var keptIDs: [StackElementID]
  }

  /// `json` with each stack of `stacks` written at its path — its elements and next ID — and
  /// the stacks that found no stack at their path (a coordinator's routes are not rewritten);
  /// `nil` when `json` is not JSON. A stack nested in an element (`[#` in its path) is left
  /// out: it comes along with the element's state.
  package static func overlaying(_ stacks: [StackRecord], on json: Data) -> (
    json: Data, unplaced: [StackRecord]
  )? {
    guard let tape = JSONTape(String(decoding: json, as: UTF8.self)) else { return nil }
    let (bytes, unplaced) = tape.overlaying(stacks)
    return (Data(bytes), unplaced)
  }

  /// `json` with the stack that holds the element a coding path leads into (the deepest such
  /// stack on the path) cut before that element, and where it was cut; `nil` when the path
  /// leads into no element of a stack, or `json` is not JSON.
  ///
  /// A decoding error's coding path names a stack's elements as `elements`, then the index.
  package static func cuttingStack(in json: Data, at codingPath: [StackPath.Component]) -> (
    json: Data, cut: Cut
  )? {
    guard let tape = JSONTape(String(decoding: json, as: UTF8.self)) else { return nil }
    var nodes = [0]
    for component in codingPath {
      guard let next = child(tape, nodes[nodes.count - 1], component) else { break }
      nodes.append(next)
    }
    // `nodes[k]` is where the first k steps lead: the stack at `nodes[position]`, its
    // `elements` at `nodes[position + 1]`.
    for position in stride(from: min(codingPath.count, nodes.count) - 2, through: 0, by: -1) {
      guard codingPath[position] == .key("elements"),
        case .index(let index) = codingPath[position + 1],
        let (_, elements) = stack(tape, nodes[position]), index < elements.count
      else { continue }
      let array = nodes[position + 1]
      let ids = elements.map { StackElementID(generation: Int($0.id)) }
      // The bytes after the last element kept (or the array's `[`) up to the array's `]`.
      let start =
        index == 0
        ? tape.range(array).lowerBound + 1 : tape.range(tape.children(array)[index - 1]).upperBound
      return (
        Data(spliced(tape.bytes, [(start..<(tape.range(array).upperBound - 1), [])])),
        Cut(
          stackCodingPath: Array(codingPath[..<position]), firstSkippedID: ids[index],
          keptIDs: Array(ids[..<index]))
      )
    }
    return nil
  }

  /// The node a step of a coding path leads to from `node`.
  private static func child(_ tape: JSONTape, _ node: Int, _ component: StackPath.Component)
    -> Int?
  {
    switch component {
    case .key(let key):
      return tape.members(node).flatMap { tape.member(key, in: $0) }
    case .index(let index):
      guard tape.first(node) == UInt8(ascii: "[") else { return nil }
      let children = tape.children(node)
      return children.indices.contains(index) ? children[index] : nil
    case .element:
      return nil
    }
  }

  /// A stack's JSON, as `StackState` encodes it, with its elements' stored states.
  fileprivate static func encoded(_ stack: StackRecord) -> String {
    let elements = stack.elements.map { "{\"id\":\($0.id.generation),\"state\":\($0.state)}" }
    return "{\"elements\":[\(elements.joined(separator: ","))],"
      + "\"nextID\":\(stack.nextID.generation)}"
  }

  /// `bytes` with each range replaced by its text; the ranges do not overlap.
  fileprivate static func spliced(
    _ bytes: [UInt8], _ splices: [(range: Range<Int>, text: [UInt8])]
  ) -> [UInt8] {
    var result = bytes
    for splice in splices.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      result.replaceSubrange(splice.range, with: splice.text)
    }
    return result
  }
}

/// One stack found in a state: its node, its elements' IDs and the tape nodes of their states.
struct FoundStack {
  var path: String
  var node: Int
  var nextID: Int64
  var ids: [Int64]
  var states: [Int]
}

extension JSONTape {
  /// Every stack of the state, nested ones included, outermost first (``StateStacks``).
  func stacks() -> [FoundStack] {
    var found: [FoundStack] = []
    StateStacks.collect(self, 0, path: "", into: &found)
    return found
  }

  /// The text with each stack of `stacks` written at its path
  /// (``StateStacks/overlaying(_:on:)``).
  func overlaying(_ stacks: [StackRecord]) -> (bytes: [UInt8], unplaced: [StackRecord]) {
    let found = Dictionary(
      self.stacks().map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    var splices: [(range: Range<Int>, text: [UInt8])] = []
    var unplaced: [StackRecord] = []
    // Stacks outside every element never hold one another, so their places do not overlap.
    for stack in stacks where !stack.path.contains("[#") && !stack.isPresentation {
      guard let place = found[stack.path], StateStacks.stack(self, place.node) != nil else {
        unplaced.append(stack)
        continue
      }
      splices.append((range(place.node), Array(StateStacks.encoded(stack).utf8)))
    }
    return (StateStacks.spliced(bytes, splices), unplaced)
  }
}

/// Checks, without the app's types, that an entry's type is the case path of its payload.
///
/// A payload in the synthesized `Codable` form of an enum is `{"case": {…associated values…}}`;
/// the type names the cases from the outermost in, descending into an associated value that is
/// itself an enum: `path.element.counter.incrementButtonTapped` for
/// `{"path":{"_0":{"element":{"action":{"counter":{"_0":{"incrementButtonTapped":{}}}},`
/// `"id":3}}}}`.
/// A payload of another shape (an app's own encoding) is not judged.
package enum ActionTypeCheck {
  /// A sentence when the type cannot be the payload's case path; `nil` when it can.
  package static func mismatch(type: String, payload: String) -> String? {
    if type.hasPrefix("stackjournal.") { return nil }
    guard
      let document = try? JSONSerialization.jsonObject(
        with: Data(payload.utf8), options: [.fragmentsAllowed]),
      let top = document as? [String: Any], top.count == 1, top.values.first is [String: Any]
    else { return nil }
    let names = type.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    var candidates: [Any] = [document]
    for (index, name) in names.enumerated() {
      // The enums this level may be: the candidates that are objects of one key.
      let matching = candidates.compactMap { candidate -> Any? in
        guard let object = candidate as? [String: Any], object.count == 1,
          let value = object[name]
        else { return nil }
        return value
      }
      guard !matching.isEmpty else {
        let found = candidates.compactMap { ($0 as? [String: Any])?.keys.first }.sorted()
        let level = names[..<index].joined(separator: ".")
        let cases =
          found.isEmpty ? "no case" : "case " + found.map { "`" + $0 + "`" }.joined(separator: ", ")
        return "the type `\(type)` does not match the payload: "
          + (level.isEmpty ? "" : "after `\(level)` ") + "the payload holds \(cases), not `\(name)`"
      }
      // The associated values of the case: each may be the next enum.
      candidates = matching.flatMap { value -> [Any] in
        guard let values = value as? [String: Any] else { return [] }
        return Array(values.values)
      }
    }
    return nil
  }
}
