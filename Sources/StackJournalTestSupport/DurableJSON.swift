import Foundation

/// A value's JSON with sorted keys, to compare what is durable about two states.
///
/// Stacks compare equal by their IDs and elements only, as in the Composable Architecture; their
/// encoding also holds each stack's next ID, nested stacks included. Two states with equal
/// encodings hand out the same IDs from then on.
public func durableJSON(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}
