import Foundation
import StackNavigation

/// Finds a stack in an encoded state (a `JSONSerialization` document) by its stored path, such
/// as `path`, `tabs[1].path`, `tabs["42"].path` or `path[#3].counter.path`.
enum StackLocator {
  enum Token: Equatable {
    case key(String)
    case index(Int)
    case element(Int)
  }

  static func tokens(of path: String) -> [Token] {
    var tokens: [Token] = []
    var current = ""
    var iterator = path.makeIterator()
    func flush() {
      if !current.isEmpty { tokens.append(.key(current)) }
      current = ""
    }
    while let character = iterator.next() {
      switch character {
      case ".":
        flush()
      case "[":
        flush()
        var inside = ""
        while let next = iterator.next(), next != "]" { inside.append(next) }
        if inside.count >= 2, inside.hasPrefix("\""), inside.hasSuffix("\"") {
          // A dictionary key that would read as an index: `tabs["42"]`.
          tokens.append(.key(String(inside.dropFirst().dropLast())))
        } else if inside.hasPrefix("#"), let id = Int(inside.dropFirst()) {
          tokens.append(.element(id))
        } else if let index = Int(inside) {
          tokens.append(.index(index))
        }
      default:
        current.append(character)
      }
    }
    flush()
    return tokens
  }

  /// Applies `update` to the stack object at `path`; returns `nil` when there is no such stack.
  static func updatingStack(
    at path: String,
    in document: Any,
    _ update: (inout [String: Any]) -> Void
  ) -> Any? {
    updatingStack(at: tokens(of: path)[...], in: document, update)
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
