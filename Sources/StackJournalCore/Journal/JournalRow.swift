import Foundation
import StackNavigation

/// One journal entry exactly as stored, the one shape every reader of a journal gets on every
/// backend: the CLI (`log`, `report`), verification and export. Nothing is decoded and no
/// upcaster runs; a ``JournalEntry`` is this row, decoded.
public struct JournalRow: Sendable {
  /// The entry's number in its session.
  public var sequence: Int64
  /// When the action was recorded, as stored: UTC to the millisecond,
  /// `2025-01-31T09:30:00.000Z` (see ``recordedDate()``).
  public var recordedAt: String
  /// The latest time of the entry and every earlier one, where the backend stores it (SQLite's
  /// `latest_at`, which a lookup by time searches); `nil` where it does not.
  public var latestAt: String?
  /// The action's case path, e.g. `path.element.counter.incrementButtonTapped`.
  public var type: String
  /// The version of the app's encoding the payload was written in.
  public var version: Int
  /// The action as stored: JSON text.
  public var payload: String
  /// What the action did to the stacks: the JSON text of a ``StackDelta``.
  public var delta: String
  /// What the reducer drew for the action, as stored: the JSON text of an
  /// `EntryDraws`; `nil` when it drew nothing, and for every entry written before journals kept
  /// draws (SQLite schema 6, PostgreSQL schema 5).
  public var draws: String?

  /// Creates a row.
  public init(
    sequence: Int64,
    recordedAt: String,
    latestAt: String? = nil,
    type: String,
    version: Int,
    payload: String,
    delta: String,
    draws: String? = nil
  ) {
    self.sequence = sequence
    self.recordedAt = recordedAt
    self.latestAt = latestAt
    self.type = type
    self.version = version
    self.payload = payload
    self.delta = delta
    self.draws = draws
  }

  private static let decoder = JSONDecoder()

  /// The stored time, read; an ``StorageError/Code/invalidData`` error when it is not a time in
  /// the stored form (`stackjournal verify` reports such a row).
  public func recordedDate() throws -> Date {
    guard let date = Timestamp.date(from: recordedAt) else {
      throw StorageError(
        code: .invalidData,
        message: "The time of entry \(sequence) is \(JSONText.literal(recordedAt)), not a time "
          + "in the form 2025-01-31T09:30:00.000Z; `stackjournal verify` on the file lists every "
          + "damaged row.")
    }
    return date
  }

  /// The stored draws, read: `nil` when the entry keeps none; an
  /// ``StorageError/Code/invalidData`` error naming what is wrong (a UUID that is not one, a
  /// kind no dependency draws) when they are not what a journal writes.
  public func decodedDraws() throws -> EntryDraws? {
    guard let draws else { return nil }
    do {
      return try EntryDraws(json: Data(draws.utf8), place: "the draws of entry \(sequence)")
    } catch let error as DrawRecordError {
      throw StorageError(
        code: .invalidData,
        message: error.message + "; `stackjournal verify` on the file lists every damaged row.")
    }
  }

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
