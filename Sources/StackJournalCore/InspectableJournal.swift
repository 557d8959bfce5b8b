import Foundation

/// What the inspection commands (`sessions`, `show`, `log`, `diff`, `report`, `replay`,
/// `export`) read from a journal, beyond what restoration needs, with the same results on every
/// backend: ``SQLiteJournal`` and the PostgreSQL backend implement it.
public protocol InspectableJournal: JournalBackend {
  /// Where the journal is, for messages: a file's path, or a server's URL without its password.
  var locationDescription: String { get }

  /// The journal's schema version.
  var schemaVersion: Int { get }

  /// Calls `body` with the session's entries that match `query`, as stored, in sequence order
  /// (newest first when the query says so); `body` returns `false` to stop. Reads a page at a
  /// time. Throws ``StorageError/Code/unknownSession`` for an unknown session.
  func journalRows(
    session: SessionID,
    matching query: JournalQuery,
    _ body: (JournalRow) throws -> Bool
  ) async throws

  /// The sequence of the session's last journal entry, or `nil` when it has none. Equal to the
  /// head in a sound session.
  func lastEntrySequence(session: SessionID) async throws -> Int64?

  /// The session's head sequence and the sequence its journal starts after: the sequence of
  /// its oldest snapshot (0 unless the session was compacted).
  func journalBounds(session: SessionID) async throws -> (base: Int64, head: Int64)

  /// The time an entry was recorded; the session's creation time for sequence 0, and the
  /// snapshot's time for the oldest sequence of a compacted session. Throws
  /// ``StorageError/Code/sequenceOutOfRange`` for a sequence the journal does not hold.
  func recordedAt(session: SessionID, sequence: Int64) async throws -> Date

  /// The sequences of the session's snapshots, oldest first.
  func snapshotSequences(session: SessionID) async throws -> [Int64]

  /// The stored bytes of each session, counted as ``SessionSize`` says.
  func sessionSizes() async throws -> [SessionID: SessionSize]

  /// Sizes per table and session, snapshot coverage and entries over time; counts only
  /// `session`'s entries and lists only it when given.
  func statistics(session: SessionID?) async throws -> StorageStatistics

  /// Checks the journal's schema and one session, or every session when `session` is `nil`,
  /// without the app's types, as ``JournalVerifier`` describes; only reads.
  func verifyStorage(session: SessionID?, maxProblemsPerSession: Int) async throws
    -> StorageVerification
}
