import Foundation
import StackJournalCore
import StackNavigation

/// Finds a stack in an encoded state (a `JSONSerialization` document) by its stored path, such
/// as `path`, `tabs[1].path`, `tabs["42"].path` or `path[#3].counter.path`, read with
/// ``StackPath``.
enum StackLocator {
  /// A step of a path, as ``StackPath`` parses it.
  typealias Token = StackPath.Component

  /// Applies `update` to the stack object at `path`; returns `nil` when there is no such stack.
  static func updatingStack(
    at path: String,
    in document: Any,
    _ update: (inout [String: Any]) -> Void
  ) -> Any? {
    updatingStack(at: StackPath.components(of: path)[...], in: document, update)
  }

  /// Applies `update` to the stack object at a path of tokens; returns `nil` when there is no
  /// such stack.
  static func updatingStack(
    at tokens: ArraySlice<Token>,
    in document: Any,
    _ update: (inout [String: Any]) -> Void
  ) -> Any? {
    updating(tokens, in: document, update)
  }

  private static func updating(
    _ tokens: ArraySlice<Token>,
    in value: Any,
    _ update: (inout [String: Any]) -> Void
  ) -> Any? {
    guard let token = tokens.first else {
      guard var stack = value as? [String: Any], stack["nextID"] != nil else { return nil }
      update(&stack)
      return stack
    }
    let rest = tokens.dropFirst()
    switch token {
    case let .key(key):
      guard var object = value as? [String: Any] else { return nil }
      if let child = object[key], let updated = updating(rest, in: child, update) {
        object[key] = updated
        return object
      }
      // A case's unlabeled payload (`_0`) does not appear in stored paths.
      guard let payload = object["_0"], let updated = updating(tokens, in: payload, update)
      else { return nil }
      object["_0"] = updated
      return object
    case let .index(index):
      guard var array = value as? [Any], array.indices.contains(index),
        let updated = updating(rest, in: array[index], update)
      else { return nil }
      array[index] = updated
      return array
    case let .element(id):
      guard var stack = value as? [String: Any], var elements = stack["elements"] as? [[String: Any]],
        let position = elements.firstIndex(where: { ($0["id"] as? Int) == id }),
        let state = elements[position]["state"],
        let updated = updating(rest, in: state, update)
      else { return nil }
      elements[position]["state"] = updated
      stack["elements"] = elements
      return stack
    }
  }
}
