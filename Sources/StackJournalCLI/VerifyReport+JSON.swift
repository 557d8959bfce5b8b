import StackStorage

extension VerifyReport {
  /// What `verify --json` prints.
  struct JSONDocument: Encodable, Sendable {
    var database: String
    var clean: Bool
    var schemaVersion: Int
    var latestSchemaVersion: Int
    var migrations: [Migration]
    var fileProblems: [String]
    var sessions: [Session]
    /// Present with `--replay` only.
    var replay: [Replay]?

    init(_ report: VerifyReport) {
      database = report.path
      clean = report.isClean
      schemaVersion = report.storage.schemaVersion
      latestSchemaVersion = report.storage.latestSchemaVersion
      migrations = report.storage.migrations.map(Migration.init)
      fileProblems = report.storage.fileProblems
      sessions = report.storage.sessions.map(Session.init)
      replay = report.replay?.map(Replay.init)
    }
  }
}

extension VerifyReport.JSONDocument {
  /// A recorded migration compared with this build's.
  struct Migration: Encodable, Sendable {
    var version: Int
    var name: String
    var checksumMatches: Bool
    var nameMatches: Bool
    /// The recorded time when it is malformed.
    @NullWhenAbsent var appliedAt: String?
    var sound: Bool

    init(_ check: StorageVerification.MigrationCheck) {
      version = check.version
      name = check.name
      checksumMatches = check.checksumMatches
      nameMatches = check.nameMatches
      appliedAt = check.malformedAppliedAt
      sound = check.isSound
    }
  }

  /// One session's checks.
  struct Session: Encodable, Sendable {
    var session: String
    var clean: Bool
    var headSequence: Int64
    var baseSequence: Int64
    var checkedEntries: Int
    var checkedSnapshots: Int
    var problems: [Problem]

    init(_ verification: SessionVerification) {
      session = verification.session.rawValue
      clean = verification.isClean
      headSequence = verification.headSequence
      baseSequence = verification.baseSequence
      checkedEntries = verification.checkedEntries
      checkedSnapshots = verification.checkedSnapshots
      problems = verification.problems.map(Problem.init)
    }
  }

  /// One problem of a session.
  struct Problem: Encodable, Sendable {
    @NullWhenAbsent var sequence: Int64?
    var kind: String
    var message: String

    init(_ problem: VerificationProblem) {
      sequence = problem.sequence
      kind = problem.kind.name
      message = problem.message
    }
  }

  /// One session's replay through the app's reducer.
  struct Replay: Encodable, Sendable {
    var session: String
    var checkedEntries: Int
    @NullWhenAbsent var divergence: Divergence?

    init(_ replay: VerifyReport.Replay) {
      session = replay.session.rawValue
      checkedEntries = replay.checked
      divergence = replay.divergence.map {
        Divergence(sequence: $0.sequence, type: $0.type, kind: $0.kind, details: $0.details)
      }
    }
  }

  /// Where replay first differs from the journal.
  struct Divergence: Encodable, Sendable {
    var sequence: Int64
    var type: String
    var kind: String
    var details: [String]
  }
}
