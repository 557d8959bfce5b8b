import Foundation
import StackNavigation

/// One recorded action of a session, as read back from the journal: its ``JournalRow``, decoded.
///
/// The row's time is read, its payload upcast to the app's current version when one is set, its
/// delta parsed; every backend builds its entries from its rows this one way.
public struct JournalEntry: Sendable {
  /// The session the entry belongs to.
  public var session: SessionID
  /// The entry's number in its session: 1, 2, 3, … with no gaps.
  public var sequence: Int64
  /// When the action was recorded, to the millisecond.
  public var recordedAt: Date
  /// The action's case path, e.g. `path.element.counter.incrementButtonTapped`.
  public var type: String
  /// The payload's version; the app's current version once upcasters ran.
  public var version: Int
  /// The action as JSON, upcast to the app's current version when one is set.
  public var payload: Data
  /// What the action did to each stack.
  public var delta: StackDelta
  /// What the reducer drew from its dependencies for the action, and the environment it ran
  /// in when that changed; `nil` when the entry keeps none (it drew nothing, or it was written
  /// before journals kept draws).
  public var draws: EntryDraws?

  /// The entry a stored row holds: `row`, decoded, its payload upcast through `upcasting`
  /// (whose errors name `path`). Throws an ``StorageError/Code/invalidData`` error for a time or
  /// delta that cannot be read, and what upcasting throws.
  package init(
    decoding row: JournalRow, session: SessionID, upcasting: Upcasting, stored: StoredValues,
    path: String?
  ) throws {
    let place = "entry \(row.sequence) of session \(session)"
    let (version, payload) = try upcasting.upcast(
      Data(row.payload.utf8), kind: .action, type: row.type, version: row.version,
      place: place, path: path)
    self.session = session
    self.sequence = row.sequence
    self.recordedAt = try stored.date(row.recordedAt, "time of \(place)")
    self.type = row.type
    self.version = version
    self.payload = payload
    self.delta = try stored.decode(StackDelta.self, row.delta, "delta of \(place)")
    self.draws = try row.decodedDraws()
  }
}
