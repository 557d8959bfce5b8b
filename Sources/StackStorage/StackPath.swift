import Foundation
import StackNavigation

/// Turns the stacks a ``StackEncodingCollector`` met into ``StackRecord``s with readable paths.
///
/// A path names where a stack sits in the encoded state, from the root:
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
enum StackPath {
  /// The records of the collected stacks, sorted by path.
  static func records(from stacks: [StackEncodingCollector.Stack]) throws -> [StackRecord] {
    var idsByCodingPath: [[String]: [StackElementID]] = [:]
    var records: [StackRecord] = []
    records.reserveCapacity(stacks.count)
    for stack in stacks {
      let path = render(stack.codingPath, parents: idsByCodingPath)
      idsByCodingPath[stack.codingPath] = stack.ids
      let elements = zip(stack.ids, stack.elements).map { id, json in
        StoredElement(
          id: id,
          caseName: JSONText.caseName(of: json),
          state: String(decoding: json, as: UTF8.self)
        )
      }
      records.append(StackRecord(path: path, nextID: stack.nextID, elements: elements))
    }
    records.sort { $0.path < $1.path }
    for (previous, record) in zip(records, records.dropFirst()) where previous.path == record.path {
      throw StorageError(
        code: .duplicateStackPath,
        message: "Two stacks of the state have the same path `\(record.path)`. Rename one of the "
          + "properties or dictionary keys that lead to them so their paths differ."
      )
    }
    return records
  }

  /// Renders a coding path as the grammar above reads: keys joined with `.`, array positions
  /// as `[i]`, keys of digits only (recorded quoted, see ``CodingPathEncoder/KeyedKey``) as
  /// `["42"]`, the segment `elements.<i>.state` inside a parent stack as `[#<id>]`, and `_0`
  /// components dropped.
  static func render(_ components: [String], parents: [[String]: [StackElementID]]) -> String {
    var rendered = ""
    var index = components.startIndex
    while index < components.endIndex {
      if index + 2 < components.endIndex,
        components[index] == "elements",
        components[index + 2] == "state",
        let ids = parents[Array(components[..<index])],
        let position = Int(components[index + 1]),
        ids.indices.contains(position)
      {
        rendered += "[#\(ids[position].generation)]"
        index += 3
        continue
      }
      // A route of a routes array: `<position>.<style>.screen` becomes `[#<position>]`.
      if index + 2 < components.endIndex,
        isDigits(components[index]),
        components[index + 2] == "screen",
        routeStyles.contains(components[index + 1]),
        let ids = parents[Array(components[..<index])],
        let position = Int(components[index]),
        ids.indices.contains(position)
      {
        rendered += "[#\(ids[position].generation)]"
        index += 3
        continue
      }
      let component = components[index]
      index += 1
      if component == "_0" { continue }
      if isDigits(component) {
        rendered += "[\(component)]"
        continue
      }
      let key =
        component.hasPrefix("\"")
        ? (try? JSONDecoder().decode(String.self, from: Data(component.utf8))) ?? component
        : component
      if isDigits(key) {
        rendered += "[\"\(key)\"]"
      } else {
        if !rendered.isEmpty { rendered += "." }
        rendered += key
      }
    }
    return rendered
  }

  /// The keys under which a route encodes its screen, one per presentation style.
  static let routeStyles: Set<String> = ["push", "sheet", "cover"]

  /// Whether a key is made of ASCII digits only, and not empty.
  static func isDigits(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
  }
}
