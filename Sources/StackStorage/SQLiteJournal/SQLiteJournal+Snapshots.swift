import Foundation
import GRDB

extension SQLiteJournal {
  /// The snapshot with the greatest sequence at or below `atOrBelow`, or `nil`.
  ///
  /// Found through the primary key. The state is upcast to ``Options/payloadVersion`` when it
  /// is set; the stacks are returned as stored.
  public func snapshot(session: SessionID, atOrBelow sequence: Int64) throws -> Snapshot? {
    let record = try read("reading a snapshot of session \(session)") { db in
      _ = try SessionRows.requireHead(db, session, stored)
      return try SnapshotRows.latest(db, session: session, atOrBelow: sequence)
    }
    guard let record else { return nil }
    let place = "the snapshot at sequence \(record.sequence) of session \(session)"
    let (version, state) = try upcasting.upcast(
      Data(record.state.utf8), kind: .state, type: nil, version: record.version, place: place,
      path: path)
    return Snapshot(
      session: session,
      sequence: record.sequence,
      version: version,
      state: state,
      stacks: try stored.decode([StackRecord].self, record.stacks, "stacks of \(place)"),
      recordedAt: try stored.date(record.recordedAt, "time of \(place)")
    )
  }

  /// Writes a snapshot of the state at a recorded sequence, now.
  ///
  /// A snapshot already stored at that sequence is kept as it is: stored rows are never
  /// rewritten. Throws `StorageError.Code.sequenceOutOfRange` beyond the head.
  public func writeSnapshot(
    session: SessionID,
    sequence: Int64,
    state: EncodedState,
    version: Int
  ) throws {
    let (stateText, stacksText) = try stored.snapshotTexts(state, session: session)
    let now = Timestamp.string(from: Date())
    try write("writing a snapshot of session \(session)") { db in
      let head = try SessionRows.requireHead(db, session, stored)
      guard (0...head).contains(sequence) else {
        throw stored.outOfRange(session, sequence, head: head)
      }
      try SnapshotRows.insert(
        db, session: session.rawValue, sequence: sequence, version: version, state: stateText,
        stacks: stacksText, recordedAt: now)
    }
  }
}
