import Foundation
import GRDB

extension SQLiteJournal {
  /// Appends an action whose delta a `StackTracker` computed, after `expectedSequence`, and
  /// returns its sequence.
  ///
  /// In one transaction: checks the head, inserts the entry with what its reducer drew
  /// (`entry.draws`), applies the delta to the stack rows
  /// (checking that it fits them) and, when ``snapshotDue(at:)``, writes the entry's snapshot,
  /// encoded only then: the append's one decision on a snapshot. Throws
  /// `StorageError.Code.sequenceConflict` or `StorageError.Code.inconsistentDelta`, writing
  /// nothing.
  ///
  /// The calling task suspends, instead of blocking its thread, while it waits for other
  /// appends' commits: until the batch holding the append committed
  /// (`Durability.groupCommit(maxBatch:)`), or, at `Durability.full`, while another append
  /// holds the writer. An append at `.full` that finds no other in progress, and every append at
  /// `Durability.normal`, is written on the calling thread: handing it to GRDB's writer queue
  /// and back costs two thread switches, more than its own commit holds the thread. So many
  /// stores on few cores share a group commit's flush, and hold at most one thread of the
  /// cooperative pool at `.full`. An append goes through when the awaiting task is cancelled.
  public func append(
    session: SessionID,
    expectedSequence: Int64,
    _ entry: JournalEntryDelta
  ) async throws -> Int64 {
    try requireWritable("appending to session \(session)")
    let prepared = try PreparedDeltaAppend(
      entry, session: session, expected: expectedSequence, in: self)
    let head = try await committed(prepared, activity: "appending to session \(session)")
    headShapes.keep(head, of: session)
    return head.sequence
  }

  /// Writes and commits a prepared append (see ``append(session:expectedSequence:_:)``).
  ///
  /// `activity`, which names the append in an error, is built only for one.
  private func committed(
    _ prepared: PreparedDeltaAppend, activity: @autoclosure () -> String
  ) async throws -> HeadShapes.Head {
    let insert: @Sendable (Database) throws -> HeadShapes.Head = { db in
      try self.insert(prepared, db)
    }
    let database = database
    if let batcher {
      return try await usingDatabase(activity()) { try await batcher.submit(insert) }
    }
    let statements = appendStatements
    let transaction: @Sendable (Database) throws -> HeadShapes.Head = { db in
      try db.inImmediateTransaction(keptIn: statements) { try insert(db) }
    }
    // Not `write(_:_:)`, which forgets the shapes kept for the heads.
    let write = { try database.writeWithoutTransaction(transaction) }
    guard options.durability == .full else { return try usingDatabase(activity(), write) }
    let alone = suspendingAppends.withValue { count in
      count += 1
      return count == 1
    }
    defer { suspendingAppends.withValue { $0 -= 1 } }
    if alone { return try usingDatabase(activity(), write) }
    return try await usingDatabase(activity()) {
      // Not GRDB's `async` write, which a cancelled task interrupts: an append goes through
      // whatever happens to the task awaiting it, as a batch's does.
      try await withCheckedThrowingContinuation { continuation in
        database.asyncWriteWithoutTransaction { db in
          continuation.resume(with: Result { try transaction(db) })
        }
      }
    }
  }

  /// Writes a prepared delta append inside the current transaction, and returns the head it
  /// makes, to keep in ``headShapes`` once committed.
  ///
  /// The head this journal's last append to the session kept stands for the session's row,
  /// its last entry and its stack rows while ``HeadShapes`` says nothing else wrote since;
  /// otherwise they are read.
  func insert(_ append: PreparedDeltaAppend, _ db: Database) throws -> HeadShapes.Head {
    let session = append.session.rawValue
    let dataVersion =
      try db.first("PRAGMA data_version", .dataVersion, in: appendStatements) { $0.integer(0) }
      ?? 0
    let (ticket, kept) = headShapes.begin(append.session, dataVersion: dataVersion)
    let number: Int64
    let lastLatestAt: String?
    var shapes: [String: StackShape]
    if let kept, kept.sequence == append.expected {
      number = kept.number
      lastLatestAt = kept.latestAt
      shapes = kept.shapes
    } else {
      let head = try append.requireHead(db, in: self)
      number = head.number
      lastLatestAt = head.lastLatestAt
      shapes = try StackRows.shapes(db, session: session)
    }
    // The head is the expected one: the entry goes after it.
    let sequence = append.expected + 1
    let latestAt = Timestamp.latest(append.recordedAt, after: lastLatestAt)
    try JournalRows.insert(
      db, session: session, number: number, sequence: sequence,
      recordedAt: append.recordedAt, latestAt: latestAt, type: append.type,
      version: append.version, payload: append.payload, delta: append.deltaText,
      draws: append.draws, path: path, statements: appendStatements)
    if let snapshot = append.snapshot {
      try SnapshotRows.insert(
        db, session: session, sequence: sequence, version: append.version,
        state: snapshot.state, stacks: snapshot.stacks, recordedAt: append.recordedAt)
    }
    try StackRows.write(
      append.delta, over: &shapes, db, session: session, statements: appendStatements)
    return HeadShapes.Head(
      number: number, sequence: sequence, latestAt: latestAt, dataVersion: dataVersion,
      ticket: ticket, shapes: shapes)
  }
}

/// A delta append with its texts prepared outside the transaction: what its journal row, its
/// snapshot and its stack rows get.
struct PreparedDeltaAppend: Sendable {
  var session: SessionID
  /// The head the append expects the session at.
  var expected: Int64
  var type: String
  var version: Int
  var payload: String
  var recordedAt: String
  var delta: StackDelta
  var deltaText: String
  /// The JSON text of what the reducer drew, or `nil` when it drew nothing.
  var draws: String?
  /// The state's JSON and its stacks when the new sequence is due for a snapshot.
  var snapshot: (state: String, stacks: String)?

  init(
    _ entry: JournalEntryDelta,
    session: SessionID,
    expected: Int64,
    in journal: SQLiteJournal
  ) throws {
    let (payload, snapshot) = try entry.storedTexts(
      sequence: expected + 1, snapshotInterval: journal.options.snapshotInterval,
      checked: { try journal.stored.text($0, $1) })
    self.session = session
    self.expected = expected
    self.type = entry.type
    self.version = entry.version
    self.payload = payload
    self.recordedAt = try Timestamp.stored(
      entry.recordedAt, "The time of the entry appended to session \(session)",
      path: journal.path)
    self.delta = entry.delta
    self.deltaText = StorageJSON.text(entry.delta)
    self.draws = entry.draws.map { $0.journalText() }
    self.snapshot = snapshot
  }

  /// The session's head, read, once it is found to be the expected one; otherwise
  /// ``StorageError/Code/sequenceConflict``.
  func requireHead(_ db: Database, in journal: SQLiteJournal) throws
    -> SessionRows.HeadRecord
  {
    let head = try db.first(
      SessionRows.HeadRecord.sql, .head, in: journal.appendStatements, .text(session.rawValue)
    ) { row in
      SessionRows.HeadRecord(
        number: row.integer(0), headSequence: row.integer(1), lastLatestAt: row.text(2))
    }
    guard let head else { throw journal.stored.unknownSession(session) }
    guard head.headSequence == expected else {
      journal.logConflict(session, head: head.headSequence, expected: expected)
      throw journal.stored.sequenceConflict(session, head: head.headSequence, expected: expected)
    }
    return head
  }
}
