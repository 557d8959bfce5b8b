import Foundation
import StackNavigation

extension StackRecord {
  /// The records of the collected stacks, sorted by path.
  static func records(from stacks: [StackEncodingCollector.Stack]) throws -> [StackRecord] {
    var idsByCodingPath: [[String]: [StackElementID]] = [:]
    var records: [StackRecord] = []
    records.reserveCapacity(stacks.count)
    for stack in stacks {
      let path = StackPath.render(stack.codingPath, parents: idsByCodingPath)
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
}
