import Foundation

/// The operations restoration needs from a journal store.
///
/// `SQLiteJournal` implements it on one SQLite file; a shared backend (PostgreSQL) can
/// implement the same semantics: sequences 1, 2, 3, … per session with no gaps, appends guarded
/// by the expected sequence, entry and stack rows written in one transaction, snapshots found by
/// the nearest sequence at or below.
public protocol JournalBackend: Sendable {
  /// Creates a session whose sequence 0 is `initial`: writes snapshot 0 and the stack rows.
  ///
  /// Throws ``StorageError/Code/sessionExists`` when the identifier is taken.
  func createSession(
    _ id: SessionID,
    initial: EncodedState,
    version: Int,
    metadata: Data?,
    forkedFrom: (SessionID, Int64)?,
    at date: Date
  ) async throws -> SessionInfo

  /// Appends an action whose delta the caller computed, after `expectedSequence`, and returns
  /// its sequence.
  ///
  /// The entry, the stack rows the delta changes and, when a snapshot is due and
  /// `entry.snapshot` is given, a snapshot are written in one transaction. Throws
  /// ``StorageError/Code/sequenceConflict`` when the head is not `expectedSequence`, and
  /// ``StorageError/Code/inconsistentDelta`` when the delta does not fit the stack rows; both
  /// write nothing.
  func append(session: SessionID, expectedSequence: Int64, _ entry: JournalEntryDelta) async throws
    -> Int64

  /// Closes the journal: waits for the calls in progress, then releases its connections. Calls
  /// made after it fail; closing again does nothing.
  func close() async throws

  /// The journal writes a snapshot with every entry whose sequence is a multiple of this; 0
  /// never does (see ``snapshotDue(at:)``).
  var snapshotInterval: Int { get }

  /// The sequence of the session's last entry; 0 before the first one.
  func headSequence(session: SessionID) async throws -> Int64

  /// Calls `body` with the entries after `after` through `through` (the head when `nil`), in
  /// ascending order, read a page at a time; `body` returns `false` to stop.
  func entries(
    session: SessionID,
    after: Int64,
    through: Int64?,
    _ body: (JournalEntry) async throws -> Bool
  ) async throws

  /// The snapshot with the greatest sequence at or below `atOrBelow`, or `nil`.
  func snapshot(session: SessionID, atOrBelow: Int64) async throws -> Snapshot?

  /// The sequence of the last entry recorded at or before `date`; 0 when `date` precedes the
  /// first entry but not the session's creation. Throws
  /// ``StorageError/Code/sequenceOutOfRange`` for a date before the session's creation.
  func sequence(session: SessionID, atOrBefore date: Date) async throws -> Int64

  /// The session, or `nil` when no session has that identifier.
  func session(_ id: SessionID) async throws -> SessionInfo?

  /// Every session, oldest first.
  func sessions() async throws -> [SessionInfo]

  /// Deletes the session with its journal, snapshots and stack rows.
  func deleteSession(_ id: SessionID) async throws

  /// Replaces the session's metadata.
  func setMetadata(_ metadata: Data?, session: SessionID) async throws

  /// The stacks at the session's head, from the stack rows.
  func headStacks(session: SessionID) async throws -> [StackRecord]

  /// The stacks at a sequence: the nearest snapshot's stacks with the following deltas applied.
  /// Needs no app types.
  func stacks(session: SessionID, at sequence: Int64) async throws -> [StackRecord]

  /// Writes a snapshot of the state at a recorded sequence.
  func writeSnapshot(session: SessionID, sequence: Int64, state: EncodedState, version: Int)
    async throws
}

extension JournalBackend {
  /// Whether the journal writes a snapshot with the entry of this sequence: its sequence is a
  /// multiple of ``snapshotInterval``. The caller then passes the whole state with it.
  public func snapshotDue(at sequence: Int64) -> Bool {
    JournalEntryDelta.snapshotDue(at: sequence, interval: snapshotInterval)
  }

  /// Creates a session that starts now, with no metadata and not forked.
  public func createSession(
    _ id: SessionID,
    initial: EncodedState,
    version: Int,
    metadata: Data? = nil,
    forkedFrom: (SessionID, Int64)? = nil
  ) async throws -> SessionInfo {
    try await createSession(
      id, initial: initial, version: version, metadata: metadata, forkedFrom: forkedFrom,
      at: Date()
    )
  }

  /// Calls `body` with every entry after `after`, through the head.
  public func entries(
    session: SessionID,
    after: Int64 = 0,
    _ body: (JournalEntry) async throws -> Bool
  ) async throws {
    try await entries(session: session, after: after, through: nil, body)
  }

  /// Calls `body` with the entries after `after` through `through` (the head when `nil`), in
  /// ascending order; `body` returns `false` to stop.
  ///
  /// `page` fetches the rows of the entries in `(after, last]`, ascending, at most `pageSize`
  /// of them; `entry` reads one, or gives `nil` for a row that holds no entry. Rows are read one
  /// at a time as `body` asks for them, and `body` runs between pages, outside any database
  /// access. An empty range still checks that the session exists.
  package func entries<Row>(
    session: SessionID,
    after: Int64,
    through: Int64?,
    pageSize: Int,
    page: (_ after: Int64, _ last: Int64) async throws -> [Row],
    entry: (Row) throws -> JournalEntry?,
    _ body: (JournalEntry) async throws -> Bool
  ) async throws {
    let last = through ?? Int64.max
    guard after < last else {
      _ = try await headSequence(session: session)
      return
    }
    var cursor = after
    while cursor < last {
      let rows = try await page(cursor, last)
      for row in rows {
        guard let entry = try entry(row) else { continue }
        cursor = entry.sequence
        guard try await body(entry) else { return }
      }
      if rows.count < pageSize { return }
    }
  }
}
