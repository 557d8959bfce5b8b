import Foundation

/// What ``InspectableJournal/verifyStorage(session:maxProblemsPerSession:)`` found: the file's own
/// checks and, per session, the journal's consistency, all without the app's types.
public struct StorageVerification: Sendable {
  /// One migration the file records, compared with this build's.
  public struct MigrationCheck: Sendable, Equatable {
    /// The schema version it brings the file to.
    public var version: Int
    /// The file name, e.g. `0001_initial.sql`.
    public var name: String
    /// Whether the recorded checksum is this build's checksum of the same file.
    public var checksumMatches: Bool
    /// Whether the recorded name is this build's name of the migration of that version.
    public var nameMatches: Bool = true
    /// The recorded time it was applied, when that is not a time in the stored form.
    public var malformedAppliedAt: String? = nil

    /// Whether the record is this build's migration, with a readable time.
    public var isSound: Bool { checksumMatches && nameMatches && malformedAppliedAt == nil }

    /// Compares a recorded migration with the one this build ships for its version, if any.
    package init(
      version: Int, name: String, checksum: String, appliedAt: String,
      shipped: (name: String, checksum: String)?
    ) {
      self.version = version
      self.name = name
      self.checksumMatches = shipped?.checksum == checksum
      self.nameMatches = shipped?.name == name
      self.malformedAppliedAt = Timestamp.date(from: appliedAt) == nil ? appliedAt : nil
    }

    package init(
      version: Int, name: String, checksumMatches: Bool, nameMatches: Bool,
      malformedAppliedAt: String?
    ) {
      self.version = version
      self.name = name
      self.checksumMatches = checksumMatches
      self.nameMatches = nameMatches
      self.malformedAppliedAt = malformedAppliedAt
    }
  }

  /// The schema version of the file.
  public var schemaVersion: Int
  /// The schema version this build writes.
  public var latestSchemaVersion: Int
  /// The migrations the file records.
  public var migrations: [MigrationCheck]
  /// What `PRAGMA integrity_check` and `PRAGMA foreign_key_check` report; empty when sound.
  public var fileProblems: [String]
  /// One result per session checked.
  public var sessions: [SessionVerification]

  /// Creates a verification result.
  package init(
    schemaVersion: Int, latestSchemaVersion: Int, migrations: [MigrationCheck],
    fileProblems: [String], sessions: [SessionVerification]
  ) {
    self.schemaVersion = schemaVersion
    self.latestSchemaVersion = latestSchemaVersion
    self.migrations = migrations
    self.fileProblems = fileProblems
    self.sessions = sessions
  }

  /// Whether nothing was found.
  public var isClean: Bool {
    fileProblems.isEmpty && migrations.allSatisfy(\.isSound)
      && sessions.allSatisfy(\.isClean)
  }
}

/// The consistency of one session's rows.
public struct SessionVerification: Sendable {
  /// The session checked.
  public var session: SessionID
  /// Its head sequence.
  public var headSequence: Int64
  /// The sequence its journal starts after: its oldest snapshot.
  public var baseSequence: Int64
  /// How many journal entries were checked.
  public var checkedEntries: Int
  /// How many snapshots were compared with the journal.
  public var checkedSnapshots: Int
  /// What is wrong, in the order found; empty when the session is sound.
  public var problems: [VerificationProblem]

  /// Whether nothing was found.
  public var isClean: Bool { problems.isEmpty }

  package init(
    session: SessionID, headSequence: Int64, baseSequence: Int64, checkedEntries: Int,
    checkedSnapshots: Int, problems: [VerificationProblem]
  ) {
    self.session = session
    self.headSequence = headSequence
    self.baseSequence = baseSequence
    self.checkedEntries = checkedEntries
    self.checkedSnapshots = checkedSnapshots
    self.problems = problems
  }
}

/// One inconsistency in a session's rows.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
  /// The kind of a problem. New kinds may be added.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    /// The kind's name, e.g. `sequenceGap`.
    public let name: String

    /// Creates a kind.
    public init(_ name: String) {
      self.name = name
    }

    /// The kind's name.
    public var description: String { name }

    /// The journal skips sequences, or does not end at the session's head.
    public static let sequenceGap = Kind("sequenceGap")
    /// The session has no snapshot to rebuild its stacks from.
    public static let snapshotMissing = Kind("snapshotMissing")
    /// A delta does not apply to the stacks before it.
    public static let inconsistentDelta = Kind("inconsistentDelta")
    /// A stack holds an ID that is not below its next generation, or holds one ID twice.
    public static let idNotBelowNextID = Kind("idNotBelowNextID")
    /// A snapshot's stacks differ from the stacks the journal rebuilds at its sequence.
    public static let snapshotMismatch = Kind("snapshotMismatch")
    /// The head's stack rows differ from the stacks the journal rebuilds at the head.
    public static let stackRowsMismatch = Kind("stackRowsMismatch")
    /// A stored value is not what its column holds: JSON that does not parse, a malformed time.
    public static let invalidData = Kind("invalidData")
    /// A snapshot's state and its stacks disagree: a stack the state holds differs from the
    /// stack recorded beside it, or one of the two lacks a stack the other has.
    public static let snapshotStateMismatch = Kind("snapshotStateMismatch")
    /// An entry's type is not the case path of its payload.
    public static let typeMismatch = Kind("typeMismatch")
  }

  /// The sequence concerned, when there is one.
  public var sequence: Int64?
  /// What kind of problem this is.
  public var kind: Kind
  /// One sentence saying what is wrong.
  public var message: String

  /// Creates a problem.
  public init(sequence: Int64?, kind: Kind, message: String) {
    self.sequence = sequence
    self.kind = kind
    self.message = message
  }

  /// `sequence N: message`, or the message alone.
  public var description: String {
    sequence.map { "sequence \($0): \(message)" } ?? message
  }
}
