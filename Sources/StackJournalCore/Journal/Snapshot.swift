import Foundation

/// The full encoded state of a session at a sequence, so a restore replays only what follows.
public struct Snapshot: Sendable {
  /// The session the snapshot belongs to.
  public var session: SessionID
  /// The sequence the state is at; 0 is the session's initial state.
  public var sequence: Int64
  /// The state's version; the app's current version once upcasters ran.
  public var version: Int
  /// The whole state as JSON, upcast to the app's current version when one is set.
  public var state: Data
  /// The stacks of the state, as stored (never upcast).
  public var stacks: [StackRecord]
  /// When the snapshot was written, to the millisecond.
  public var recordedAt: Date

  /// Creates a snapshot.
  public init(
    session: SessionID,
    sequence: Int64,
    version: Int,
    state: Data,
    stacks: [StackRecord],
    recordedAt: Date
  ) {
    self.session = session
    self.sequence = sequence
    self.version = version
    self.state = state
    self.stacks = stacks
    self.recordedAt = recordedAt
  }
}

/// A snapshot exactly as stored, as verification and export read it on every backend: its state
/// and stacks as JSON text, its time as text; nothing is decoded and no upcaster runs.
package struct StoredSnapshotRow: Sendable {
  package var sequence: Int64
  package var version: Int
  package var state: String
  package var stacks: String
  package var recordedAt: String

  package init(sequence: Int64, version: Int, state: String, stacks: String, recordedAt: String) {
    self.sequence = sequence
    self.version = version
    self.state = state
    self.stacks = stacks
    self.recordedAt = recordedAt
  }
}
