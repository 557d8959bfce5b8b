import Foundation
import GRDB

extension SQLiteJournal {
  /// Appends an action after `expectedSequence` and returns its sequence.
  ///
  /// In one transaction: checks that the session's head is `expectedSequence`, computes the delta
  /// from the stack rows to `draft.state.stacks`, inserts the entry, updates the stack rows and
  /// the head, and writes a snapshot when the new sequence is a multiple of
  /// ``Options/snapshotInterval``. With ``Durability/groupCommit(maxBatch:)`` the transaction
  /// may hold other threads' appends too; this call still returns only once it committed.
  ///
  /// Throws ``StorageError/Code/sequenceConflict``, writing nothing, when another writer
  /// appended first: reload the head and retry; ``StorageError/Code/invalidData``, writing
  /// nothing, when the payload is not JSON.
  public func append(
    session: SessionID,
    expectedSequence: Int64,
    _ draft: JournalEntryDraft
  ) throws -> Int64 {
    try requireWritable("appending to session \(session)")
    let prepared = try PreparedAppend(draft, session: session, expected: expectedSequence, in: self)
    guard let batcher else {
      return try write("appending to session \(session)") { db in
        try self.insert(prepared, db)
      }
    }
    do {
      return try batcher.submit { db in try self.insert(prepared, db) }
    } catch let error as DatabaseError {
      throw StorageError(
        databaseError: error, path: path, doing: "appending to session \(session)")
    }
  }

  /// Writes a prepared append inside the current transaction.
  func insert(_ append: PreparedAppend, _ db: Database) throws -> Int64 {
    let session = append.session.rawValue
    let head = try requireHead(db, append.session)
    guard head == append.expected else {
      throw StorageError(
        code: .sequenceConflict,
        message: "Session \(append.session) is at sequence \(head), but this append expected "
          + "\(append.expected): another writer appended first. Nothing was written; reload the "
          + "session's head and retry.",
        path: path
      )
    }
    let before = try StackRows.load(db, session: session)
    let delta = StackDelta.between(before, append.stacks)
    var after = before
    try delta.apply(to: &after)
    let sequence = head + 1
    try db.cachedStatement(
      sql: "INSERT INTO journal (session, sequence, recorded_at, type, version, payload, delta) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?)"
    ).execute(arguments: [
      session, sequence, append.recordedAt, append.type, append.version, append.payload,
      try StorageJSON.text(delta),
    ])
    try StackRows.apply(delta, before: before, db, session: session)
    try db.cachedStatement(sql: "UPDATE sessions SET head_sequence = ? WHERE id = ?")
      .execute(arguments: [sequence, session])
    if let snapshotState = append.snapshotState {
      try insertSnapshot(
        db, session: session, sequence: sequence, version: append.version, state: snapshotState,
        stacks: try StorageJSON.text(append.stacks), recordedAt: append.recordedAt)
    }
    return sequence
  }

  func insertSnapshot(
    _ db: Database,
    session: String,
    sequence: Int64,
    version: Int,
    state: String,
    stacks: String,
    recordedAt: String
  ) throws {
    try db.cachedStatement(
      sql: "INSERT INTO snapshots (session, sequence, version, state, stacks, recorded_at) "
        + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session, sequence) DO NOTHING"
    ).execute(arguments: [session, sequence, version, state, stacks, recordedAt])
  }
}

/// An append with everything that does not need the database computed up front, outside the
/// transaction.
struct PreparedAppend: Sendable {
  var session: SessionID
  var expected: Int64
  var type: String
  var version: Int
  var payload: String
  var stacks: [StackRecord]
  var recordedAt: String
  /// The state's JSON when the new sequence is due for a snapshot.
  var snapshotState: String?

  init(
    _ draft: JournalEntryDraft,
    session: SessionID,
    expected: Int64,
    in journal: SQLiteJournal
  ) throws {
    self.session = session
    self.expected = expected
    self.type = draft.type
    self.version = draft.version
    self.payload = try journal.text(draft.payload, "payload of the `\(draft.type)` action")
    self.stacks = try Self.canonical(draft.state.stacks)
    self.recordedAt = Timestamp.string(from: draft.recordedAt)
    let interval = Int64(journal.options.snapshotInterval)
    if interval > 0, (expected + 1) % interval == 0 {
      self.snapshotState = try journal.text(draft.state.json, "state after `\(draft.type)`")
    } else {
      self.snapshotState = nil
    }
  }

  /// The stacks sorted by path; throws when two share a path.
  static func canonical(_ stacks: [StackRecord]) throws -> [StackRecord] {
    let sorted =
      zip(stacks, stacks.dropFirst()).allSatisfy { $0.path < $1.path }
      ? stacks : stacks.sorted { $0.path < $1.path }
    for (previous, stack) in zip(sorted, sorted.dropFirst()) where previous.path == stack.path {
      throw StorageError(
        code: .duplicateStackPath,
        message: "The state lists two stacks at the path `\(stack.path)`; encode it with "
          + "StateEncoding.encode(_:), which gives each stack its own path."
      )
    }
    return sorted
  }
}
