import Foundation

/// One journal entry exactly as stored, for tools that inspect a journal without the app's
/// types: no upcaster runs and nothing is decoded.
public struct JournalRow: Sendable {
  /// The entry's number in its session.
  public var sequence: Int64
  /// When the action was recorded, to the millisecond.
  public var recordedAt: Date
  /// The action's case path, e.g. `path.element.counter.incrementButtonTapped`.
  public var type: String
  /// The version of the app's encoding the payload was written in.
  public var version: Int
  /// The action as stored: JSON text.
  public var payload: String
  /// What the action did to the stacks: the JSON text of a ``StackDelta``.
  public var delta: String

  /// Creates a row.
  public init(
    sequence: Int64,
    recordedAt: Date,
    type: String,
    version: Int,
    payload: String,
    delta: String
  ) {
    self.sequence = sequence
    self.recordedAt = recordedAt
    self.type = type
    self.version = version
    self.payload = payload
    self.delta = delta
  }

  private static let decoder = JSONDecoder()

  /// The stored delta, decoded.
  public func decodedDelta() throws -> StackDelta {
    do {
      return try Self.decoder.decode(StackDelta.self, from: Data(delta.utf8))
    } catch {
      throw StorageError(
        code: .invalidData,
        message: "The delta of entry \(sequence) cannot be read; `stackjournal verify` on the "
          + "file lists every damaged row.",
        underlying: error
      )
    }
  }
}
