import Foundation

/// What the inspection commands (`sessions`, `show`, `log`, `diff`, `report`, `replay`,
/// `export`) read from a journal, beyond what restoration needs, with the same results on every
/// backend: `SQLiteJournal` and the PostgreSQL backend implement it.
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

  /// The session's stacks at one moment, with the session, its bounds and the time the moment
  /// was recorded, all read in one read transaction: one view of the database, consistent even
  /// while a writer appends.
  ///
  /// `moment` gets the session's bounds and names the moment: a sequence, or a date whose last
  /// entry at or before it is found as ``JournalBackend/sequence(session:atOrBefore:)`` finds
  /// it. `check` then gets the bounds and that sequence, before the stacks are rebuilt. Either
  /// throws to stop; what it throws is rethrown. Throws ``StorageError/Code/unknownSession``
  /// for an unknown session, and as ``JournalBackend/stacks(session:at:)``,
  /// ``recordedAt(session:sequence:)`` and ``JournalBackend/sequence(session:atOrBefore:)``
  /// throw.
  func sessionStacks(
    session: SessionID,
    at moment: @escaping @Sendable (SessionBounds) throws -> StacksMoment,
    check: @escaping @Sendable (SessionBounds, Int64) throws -> Void
  ) async throws -> SessionStacks

  /// The stored bytes of each session, counted as ``SessionSize`` says.
  func sessionSizes() async throws -> [SessionID: SessionSize]

  /// Sizes per table and session, snapshot coverage and entries over time; counts only
  /// `session`'s entries and lists only it when given.
  func statistics(session: SessionID?) async throws -> StorageStatistics

  /// Checks the journal's schema and one session, or every session when `session` is `nil`,
  /// without the app's types, as `SQLiteJournal`'s `verifyStorage` describes; only reads. The
  /// one way into verification on every backend: `stackjournal verify` calls it.
  func verifyStorage(session: SessionID?, maxProblemsPerSession: Int) async throws
    -> StorageVerification
}

/// A session and the sequences its journal holds, as one read transaction saw them.
public struct SessionBounds: Sendable {
  /// The session, with its head, creation time and activity.
  public var session: SessionInfo
  /// The sequence its journal starts after: its oldest snapshot's (0 unless compacted).
  public var base: Int64
  /// The sequence of its last journal entry, or `nil` when it has none. Equal to the head in
  /// a sound session.
  public var lastEntrySequence: Int64?

  /// Creates bounds.
  public init(session: SessionInfo, base: Int64, lastEntrySequence: Int64?) {
    self.session = session
    self.base = base
    self.lastEntrySequence = lastEntrySequence
  }

  /// The session's head sequence.
  public var head: Int64 { session.headSequence }
}

/// The moment of a session whose stacks ``InspectableJournal/sessionStacks(session:at:check:)``
/// reads.
public enum StacksMoment: Sendable, Equatable {
  /// A sequence.
  case sequence(Int64)
  /// The last entry recorded at or before a date.
  case atOrBefore(Date)
}

/// A session's stacks at one sequence, and what it was read with, from one read transaction.
public struct SessionStacks: Sendable {
  /// The session and its bounds.
  public var bounds: SessionBounds
  /// The sequence the stacks are at.
  public var sequence: Int64
  /// When that sequence was recorded (see ``InspectableJournal/recordedAt(session:sequence:)``).
  public var recordedAt: Date
  /// The stacks, rebuilt from the nearest snapshot and the deltas after it.
  public var stacks: [StackRecord]

  /// Creates a session's stacks.
  public init(bounds: SessionBounds, sequence: Int64, recordedAt: Date, stacks: [StackRecord]) {
    self.bounds = bounds
    self.sequence = sequence
    self.recordedAt = recordedAt
    self.stacks = stacks
  }
}
