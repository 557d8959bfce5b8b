import StackJournalCore

extension VerifyReport {
  /// What `verify --json` prints.
  struct JSONDocument: Encodable, Sendable {
    /// A recorded migration compared with this build's; `appliedAt` when it is malformed.
    struct Migration: Encodable, Sendable {
      var version: Int
      var name: String
      var checksumMatches, nameMatches: Bool
      @NullWhenAbsent var appliedAt: String?
      var sound: Bool
    }

    /// One session's checks.
    struct Session: Encodable, Sendable {
      var session: String
      var clean: Bool
      var headSequence, baseSequence: Int64
      var checkedEntries, checkedSnapshots: Int
      var problems: [Problem]
      /// The first entry that journals its draws; entries before it were written before draws
      /// were journaled.
      @NullWhenAbsent var drawsJournaledFrom: Int64?
    }

    /// One problem of a session.
    struct Problem: Encodable, Sendable {
      @NullWhenAbsent var sequence: Int64?
      var kind, message: String
    }

    /// One session's replay through the app's reducer, and where it first differs.
    struct Replay: Encodable, Sendable {
      struct Divergence: Encodable, Sendable {
        var sequence: Int64
        var type, kind: String
        var details: [String]
      }

      var session: String
      var checkedEntries: Int
      @NullWhenAbsent var divergence: Divergence?
    }

    var database: String
    var clean: Bool
    var schemaVersion, latestSchemaVersion: Int
    var migrations: [Migration]
    var fileProblems: [String]
    var sessions: [Session]
    /// Present with `--replay` only.
    var replay: [Replay]?

    init(_ report: VerifyReport) {
      let storage = report.storage
      database = report.path
      clean = report.isClean
      schemaVersion = storage.schemaVersion
      latestSchemaVersion = storage.latestSchemaVersion
      migrations = storage.migrations.map {
        Migration(
          version: $0.version, name: $0.name, checksumMatches: $0.checksumMatches,
          nameMatches: $0.nameMatches, appliedAt: $0.malformedAppliedAt, sound: $0.isSound)
      }
      fileProblems = storage.fileProblems
      sessions = storage.sessions.map { session in
        Session(
          session: session.session.rawValue, clean: session.isClean,
          headSequence: session.headSequence, baseSequence: session.baseSequence,
          checkedEntries: session.checkedEntries, checkedSnapshots: session.checkedSnapshots,
          problems: session.problems.map {
            Problem(sequence: $0.sequence, kind: $0.kind.name, message: $0.message)
          }, drawsJournaledFrom: report.drawsJournaledFrom[session.session])
      }
      replay = report.replay?.map { result in
        Replay(
          session: result.session.rawValue, checkedEntries: result.checked,
          divergence: result.divergence.map {
            .init(sequence: $0.sequence, type: $0.type, kind: $0.kind, details: $0.details)
          })
      }
    }
  }
}
