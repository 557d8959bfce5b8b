import Foundation
import StackNavigation

/// Finds the stacks inside an encoded state without the app's types, to compare a snapshot's
/// state with the stacks recorded beside it.
///
/// A stack encodes as `{"elements":[{"id":N,"state":…},…],"nextID":N}`; its path is rendered as
/// ``StackPath`` renders a coding path (`path`, `tabs[1].path`, `sheets["42"].path`,
/// `path[#3].counter.path`, the `_0` of an unlabeled enum payload left out).
enum StateStacks {
  /// One stack found in a state.
  struct Found {
    var path: String
    var nextID: Int64
    var ids: [Int64]
    var states: [JSONNode]
  }

  /// A sentence saying how the stacks in `state` differ from `stacks`, or `nil` when they
  /// agree (or the state cannot be parsed, which the caller reports on its own).
  static func disagreement(state: String, stacks: [StackRecord]) -> String? {
    guard let document = JSONNode.parse(state) else { return nil }
    var found: [Found] = []
    collect(document, path: "", into: &found)
    let inState = Dictionary(found.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    let recorded = Dictionary(stacks.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
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
        } else if a.ids != b.elements.map({ Int64($0.id.generation) }) {
          let recorded = b.elements.map { $0.id.generation }
          parts.append("`\(name)` holds IDs \(a.ids) in the state, \(recorded) in the stacks")
        } else {
          for (index, element) in b.elements.enumerated() {
            guard let stored = JSONNode.parse(element.state), stored == a.states[index] else {
              parts.append(
                "`\(name)` element \(element.id) differs between the state and the stacks")
              break
            }
          }
        }
      default:
        break
      }
      if parts.count >= 3 { break }
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// Whether a value has the shape of an encoded stack.
  private static func stack(_ value: JSONNode)
    -> (nextID: Int64, elements: [(id: Int64, state: JSONNode)])?
  {
    guard case .object(let members) = value, members.count == 2,
      let next = value["nextID"]?.int64, case .array(let elements)? = value["elements"]
    else { return nil }
    var result: [(id: Int64, state: JSONNode)] = []
    for element in elements {
      guard case .object(let fields) = element, fields.count == 2,
        let id = element["id"]?.int64, let state = element["state"]
      else { return nil }
      result.append((id, state))
    }
    return (next, result)
  }

  /// Whether a value has the shape of an encoded routes array: every element one route,
  /// `{"<style>":{"screen":…}}`; returns each route's screen.
  private static func routes(_ value: JSONNode) -> [JSONNode]? {
    guard case .array(let array) = value, !array.isEmpty else { return nil }
    var screens: [JSONNode] = []
    for element in array {
      guard case .object(let route) = element, route.count == 1,
        StackPath.routeStyles.contains(route[0].key),
        let screen = route[0].value["screen"]
      else { return nil }
      screens.append(screen)
    }
    return screens
  }

  private static func collect(_ value: JSONNode, path: String, into found: inout [Found]) {
    if let screens = routes(value), case .array(let array) = value {
      // A coordinator's routes: a stack whose IDs are the positions (see `StackPath`).
      found.append(
        Found(
          path: path, nextID: Int64(StackElementID.routesNextID.generation),
          ids: array.indices.map(Int64.init), states: array))
      for (position, screen) in screens.enumerated() {
        collect(
          screen, path: StackPath.appending(.element(position), to: path), into: &found)
      }
      return
    }
    if let (nextID, elements) = stack(value) {
      found.append(
        Found(path: path, nextID: nextID, ids: elements.map(\.id), states: elements.map(\.state)))
      for element in elements {
        collect(
          element.state, path: StackPath.appending(.element(Int(element.id)), to: path),
          into: &found)
      }
      return
    }
    switch value {
    case .object(let members):
      for (key, child) in members {
        let next = key == "_0" ? path : StackPath.appending(.key(key), to: path)
        collect(child, path: next, into: &found)
      }
    case .array(let array):
      for (index, child) in array.enumerated() {
        collect(child, path: StackPath.appending(.index(index), to: path), into: &found)
      }
    default:
      break
    }
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
enum ActionTypeCheck {
  /// A sentence when the type cannot be the payload's case path; `nil` when it can.
  static func mismatch(type: String, payload: String) -> String? {
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
