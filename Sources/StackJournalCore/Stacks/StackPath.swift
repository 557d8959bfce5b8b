import Foundation
import StackNavigation

/// The grammar of a stack's path: where a stack sits in the encoded state, from the root. The
/// one place that parses and prints it.
///
/// ```
/// path      = [ name ] { component }
/// component = "." name          a property, or a dictionary key, that is not all digits
///           | "[" digits "]"    the element at that position of an array
///           | "[\"" digits "\"]"  a property or dictionary key made of digits only
///           | "[#" digits "]"   the element with that ID in the stack the path has reached
/// ```
///
/// The root itself is the empty path. The `_0` key of an enum case's unlabeled payload is left
/// out, and the `elements`, position and `state` keys of an element inside a parent stack become
/// its `[#id]`: `path`, `tabs[1].path`, `sheets["42"].path`, `path[#3].counter.path`. A
/// coordinator's routes are a stack whose IDs are the routes' positions, and the position, style
/// and `screen` keys of a route become its `[#position]`: `routes[#2].child.routes`. Names are
/// written as they are, not escaped.
package enum StackPath {
  /// One step of a path.
  package enum Component: Hashable, Sendable {
    /// A property or dictionary key.
    case key(String)
    /// The element at a position of an array.
    case index(Int)
    /// The element with an ID (a generation) in the stack the path has reached.
    case element(Int)
  }

  /// The components of a stored path; a bracket that holds none of the forms above is skipped.
  package static func components(of path: String) -> [Component] {
    var components: [Component] = []
    var name = ""
    var characters = path.makeIterator()
    func endName() {
      if !name.isEmpty { components.append(.key(name)) }
      name = ""
    }
    while let character = characters.next() {
      switch character {
      case ".":
        endName()
      case "[":
        endName()
        var inside = ""
        while let next = characters.next(), next != "]" { inside.append(next) }
        if inside.count >= 2, inside.hasPrefix("\""), inside.hasSuffix("\"") {
          components.append(.key(String(inside.dropFirst().dropLast())))
        } else if inside.hasPrefix("#"), let id = Int(inside.dropFirst()) {
          components.append(.element(id))
        } else if let index = Int(inside) {
          components.append(.index(index))
        }
      default:
        name.append(character)
      }
    }
    endName()
    return components
  }

  /// The path of components, as stored.
  package static func text(_ components: [Component]) -> String {
    components.reduce(into: "") { path, component in path = appending(component, to: path) }
  }

  /// A path with one more component.
  package static func appending(_ component: Component, to path: String) -> String {
    switch component {
    case .key(let key) where isDigits(key): path + "[\"\(key)\"]"
    case .key(let key): path.isEmpty ? key : path + "." + key
    case .index(let index): path + "[\(index)]"
    case .element(let id): path + "[#\(id)]"
    }
  }

  /// The path of a coding path: keys as `.name`, array positions as `[i]`, keys of digits only
  /// (recorded quoted, see ``CodingPathEncoder/KeyedKey``) as `["42"]`, the segment
  /// `elements.<i>.state` inside a parent stack and the segment `<i>.<style>.screen` inside a
  /// routes array as `[#<id>]`, and `_0` components dropped.
  static func render(_ codingPath: [String], parents: [[String]: [StackElementID]]) -> String {
    var path = ""
    var index = codingPath.startIndex
    while index < codingPath.endIndex {
      if let id = elementID(codingPath, at: index, parents: parents) {
        path = appending(.element(id), to: path)
        index += 3
        continue
      }
      let component = codingPath[index]
      index += 1
      if component == "_0" { continue }
      if isDigits(component), let position = Int(component) {
        path = appending(.index(position), to: path)
        continue
      }
      let key =
        component.hasPrefix("\"")
        ? (try? JSONDecoder().decode(String.self, from: Data(component.utf8))) ?? component
        : component
      path = appending(.key(key), to: path)
    }
    return path
  }

  /// The ID of the element whose three coding keys start at `index`: `elements.<i>.state` of a
  /// stack, or `<i>.<style>.screen` of a routes array, whose IDs `parents` holds.
  private static func elementID(
    _ codingPath: [String],
    at index: Int,
    parents: [[String]: [StackElementID]]
  ) -> Int? {
    guard index + 2 < codingPath.endIndex else { return nil }
    let position: String
    if codingPath[index] == "elements", codingPath[index + 2] == "state" {
      position = codingPath[index + 1]
    } else if isDigits(codingPath[index]), codingPath[index + 2] == "screen",
      routeStyles.contains(codingPath[index + 1])
    {
      position = codingPath[index]
    } else {
      return nil
    }
    guard let ids = parents[Array(codingPath[..<index])], let offset = Int(position),
      ids.indices.contains(offset)
    else { return nil }
    return ids[offset].generation
  }

  /// The keys under which a route encodes its screen, one per presentation style.
  static let routeStyles: Set<String> = ["push", "sheet", "cover"]

  /// Whether a key is made of ASCII digits only, and not empty.
  package static func isDigits(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
  }
}
