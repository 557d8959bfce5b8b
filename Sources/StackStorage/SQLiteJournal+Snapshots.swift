import Foundation
import GRDB

extension SQLiteJournal {
  /// The snapshot with the greatest sequence at or below `atOrBelow`, or `nil`.
  ///
  /// Found through the primary key. The state is upcast to ``Options/payloadVersion`` when it
  /// is set; the stacks are returned as stored.
  public func snapshot(session: SessionID, atOrBelow sequence: Int64) throws -> Snapshot? {
    let row = try read("reading a snapshot of session \(session)") { db in
      _ = try requireHead(db, session)
      return try Row.fetchOne(
        db.cachedStatement(
          sql: "SELECT sequence, version, state, stacks, recorded_at FROM snapshots "
            + "WHERE session = ? AND sequence <= ? ORDER BY sequence DESC LIMIT 1"
        ),
        arguments: [session.rawValue, sequence]
      )
    }
    guard let row else { return nil }
    let found: Int64 = row[0]
    let place = "the snapshot at sequence \(found) of session \(session)"
    let stateText: String = row[2]
    let (version, state) = try upcasting.upcast(
      Data(stateText.utf8), kind: .state, type: nil, version: row[1], place: place, path: path)
    return Snapshot(
      session: session,
      sequence: found,
      version: version,
      state: state,
      stacks: try decode([StackRecord].self, row[3], "stacks of \(place)"),
      recordedAt: try date(row[4], "time of \(place)")
    )
  }

  /// Writes a snapshot of the state at a recorded sequence, now.
  ///
  /// A snapshot already stored at that sequence is kept as it is: stored rows are never
  /// rewritten. Throws ``StorageError/Code/sequenceOutOfRange`` beyond the head.
  public func writeSnapshot(
    session: SessionID,
    sequence: Int64,
    state: EncodedState,
    version: Int
  ) throws {
    let stateText = try text(state.json, "state of the snapshot of session \(session)")
    let stacksText = try StorageJSON.text(try PreparedAppend.canonical(state.stacks))
    let now = Timestamp.string(from: Date())
    try write("writing a snapshot of session \(session)") { db in
      let head = try requireHead(db, session)
      guard (0...head).contains(sequence) else { throw outOfRange(session, sequence, head: head) }
      try insertSnapshot(
        db, session: session.rawValue, sequence: sequence, version: version, state: stateText,
        stacks: stacksText, recordedAt: now)
    }
  }
}
