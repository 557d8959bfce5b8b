import Foundation
import StackNavigation

/// Turns the stacks a ``StackEncodingCollector`` met into ``StackRecord``s with readable paths.
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

  /// Renders a coding path: components joined with `.`, integers as `[i]`, the segment
  /// `elements.<i>.state` inside a parent stack as `[#<id>]`, and `_0` components dropped.
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
      let component = components[index]
      index += 1
      if component == "_0" { continue }
      if !component.isEmpty, component.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        rendered += "[\(component)]"
      } else {
        if !rendered.isEmpty { rendered += "." }
        rendered += component
      }
    }
    return rendered
  }
}
