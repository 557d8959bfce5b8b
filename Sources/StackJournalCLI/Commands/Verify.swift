import ArgumentParser
import Foundation
import StackStorage

extension StackJournalCommand {
  /// `stackjournal verify [SESSION]`: integrity without the app's code.
  public struct Verify: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Check a journal file's integrity without the app's code.",
      discussion: VerifyReport.discussion)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("Check only this session.", valueName: "session"))
    var session: String?

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Verifies the file; exits 1 when it finds problems.
    public func run() async throws {
      try await reportingErrors {
        let journal: any RetainableJournal
        do {
          journal = try await VerifyReport.readable(database.path) { try await database.openReadOnly() }
        } catch let error as StorageError where error.code == .alteredSchema {
          // Every other command refuses such a file; verify says what was changed.
          let found = try SQLiteJournal.schemaDeviations(path: database.path)
          let report = VerifyReport(
            path: database.path,
            storage: StorageVerification(
              schemaVersion: found.version, latestSchemaVersion: SQLiteJournal.latestSchemaVersion,
              migrations: [], fileProblems: found.problems.isEmpty ? [error.message] : found.problems,
              sessions: []))
          report.print(json: output.json)
          throw ExitCode.problemsFound
        }
        let id = session.map(SessionID.init(rawValue:))
        if let id { _ = try await journal.requireSession(id) }
        let storage = try await VerifyReport.readable(database.path) {
          try await journal.verifyStorage(session: id, maxProblemsPerSession: 20)
        }
        var report = VerifyReport(journal: journal, storage: storage, replay: nil)
        await report.readDrawsJournaledFrom(journal)
        report.print(json: output.json)
        if !report.isClean { throw ExitCode.problemsFound }
      }
    }
  }
}

/// The report `verify` prints: the storage checks and, with `--replay`, the replay's.
struct VerifyReport {
  static let discussion = """
    Checks: SQLite's integrity and foreign keys (a PostgreSQL server enforces its own); the \
    recorded migrations against this build's \
    checksums; the file's schema against the one the migrations make (no trigger, view, index \
    or table added, changed or replaced by hand); per session, sequences without gaps from the \
    oldest snapshot to the head, every delta applying to the stacks before it, next IDs that \
    never go back, every ID below its stack's next generation, every snapshot's stacks equal \
    to the journal's at its sequence, the stack rows equal to the journal's head, payloads and \
    times and draws that parse. Read-only, consistent while an app appends. A session whose \
    entries were partly written before the journal kept what reducers drew (a journal migrated \
    from an earlier schema) is noted: those entries replay with the replaying process's own \
    dependencies.

    Exit status 0 when clean, 1 with a report of the problems, 2 when the file cannot be read.
    """

  /// The result of replaying one session through the app's reducer.
  struct Replay {
    var session: SessionID
    var checked: Int
    var divergence: (sequence: Int64, type: String, kind: String, details: [String])?
  }

  var path: String
  var storage: StorageVerification
  var replay: [Replay]?
  /// What the file-level check is called: SQLite's own checks, or the server's constraints.
  var fileCheck: String
  /// Each session's first entry that journals its draws (`SessionInfo.drawsJournaledFrom`),
  /// read by ``readDrawsJournaledFrom(_:)``.
  var drawsJournaledFrom: [SessionID: Int64] = [:]

  init(journal: any InspectableJournal, storage: StorageVerification, replay: [Replay]?) {
    self.path = journal.locationDescription
    self.storage = storage
    self.replay = replay
    self.fileCheck =
      journal is SQLiteJournal
      ? "SQLite integrity and foreign keys" : "keys and references (enforced by the server)"
  }

  /// The report on a file whose sessions could not be checked, with what the file's own checks
  /// found.
  init(path: String, storage: StorageVerification) {
    self.path = path
    self.storage = storage
    self.replay = nil
    self.fileCheck = "SQLite integrity and foreign keys"
  }

  /// Runs `body`, turning an error that says the file itself is damaged into one that says
  /// what verify could not read, instead of advising to run verify.
  static func readable<T>(_ path: String, _ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as StorageError
      where [.corrupt, .notADatabase, .truncated, .emptyFile].contains(error.code)
    {
      var message = error.message
      if let range = message.range(of: " (`stackjournal verify") {
        message = String(message[..<range.lowerBound]) + "."
      }
      throw CLIFailure(
        message: "verify cannot read \(path): the file itself is damaged, below what verify "
          + "checks row by row. \(message)")
    }
  }

  /// Reads each checked session's ``drawsJournaledFrom``. A session row that cannot be read
  /// (a creation time that is not one) is what the report is about: no note is made then.
  mutating func readDrawsJournaledFrom(_ journal: any InspectableJournal) async {
    let checked = Set(storage.sessions.map(\.session))
    for info in (try? await journal.sessions()) ?? [] where checked.contains(info.id) {
      drawsJournaledFrom[info.id] = info.drawsJournaledFrom
    }
  }

  /// The note on entries of `session` written before draws were journaled, if it has any.
  func unjournaledDraws(_ session: SessionVerification) -> String? {
    drawsJournaledFrom[session.session].flatMap {
      DrawsText.unjournaled(
        base: session.baseSequence, drawsFrom: $0, head: session.headSequence)
    }
  }

  var isClean: Bool {
    storage.isClean && (replay ?? []).allSatisfy { $0.divergence == nil }
  }

  func print(json: Bool) {
    let out = Terminal.standardOutput
    defer { out.flush() }
    if json {
      // Encoding these plain values cannot fail.
      out.rawLine((try? ReportJSON.text(JSONDocument(self))) ?? "{}")
      return
    }
    let ok = out.styled("ok", .green)
    let bad = out.styled("FAILED", .red)
    out.line(out.styled("Verifying \(path)", .bold))
    out.line(
      "  schema version \(storage.schemaVersion) (this build writes "
        + "\(storage.latestSchemaVersion))")
    for migration in storage.migrations {
      var findings: [String] = []
      if !migration.checksumMatches {
        findings.append("checksum \(bad): edited after it was applied")
      }
      if !migration.nameMatches {
        findings.append(
          "name \(bad): this build's migration \(migration.version) has another name")
      }
      if let time = migration.malformedAppliedAt {
        findings.append("applied_at \(bad): `\(time)` is not a time")
      }
      out.line(
        "  migration \(migration.name): "
          + (findings.isEmpty ? "checksum \(ok)" : findings.joined(separator: "; ")))
    }
    out.line(
      "  \(fileCheck): " + (storage.fileProblems.isEmpty ? ok : bad))
    for problem in storage.fileProblems { out.line("    \(problem)") }
    for session in storage.sessions {
      let range =
        session.baseSequence == 0
        ? "\(session.checkedEntries) entries"
        : "\(session.checkedEntries) entries after compaction at \(session.baseSequence)"
      out.line(
        "  session \(session.session): \(range), \(session.checkedSnapshots) snapshots, "
          + "head \(session.headSequence): " + (session.isClean ? ok : bad))
      for problem in session.problems {
        out.line("    \(problem.kind): \(problem)")
      }
      if let note = unjournaledDraws(session) { out.line("    note: \(note)") }
    }
    for result in replay ?? [] {
      if let divergence = result.divergence {
        out.line(
          "  replay \(result.session): \(bad) at sequence \(divergence.sequence) "
            + "(\(divergence.type)): \(divergence.kind)")
        for detail in divergence.details { out.line("    \(detail)") }
      } else {
        out.line("  replay \(result.session): \(result.checked) entries reproduced: \(ok)")
      }
    }
    let problems =
      storage.sessions.reduce(0) { $0 + $1.problems.count } + storage.fileProblems.count
      + storage.migrations.filter { !$0.isSound }.count
      + (replay ?? []).filter { $0.divergence != nil }.count
    out.line(
      isClean
        ? out.styled("Clean: \(storage.sessions.count) session(s) verified.", .green)
        : out.styled("\(problems) problem(s) found.", .red))
  }
}
