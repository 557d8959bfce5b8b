import Foundation

/// JSON text of the storage's own values (deltas, stack lists), keys sorted.
package enum StorageJSON {
  package static func text<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}
