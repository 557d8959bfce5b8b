import ArgumentParser
import Foundation
import StackJournalCore

extension StackJournalCommand {
  /// `stackjournal prune`: explicit deletion of whole sessions.
  public struct Prune: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Delete whole sessions that match every criterion given (explicit retention).",
      discussion: """
        Criteria combine (a session must match all): --idle-since TIME (last entry, or \
        creation, before TIME), --forks (forked sessions), --forks-of SESSION, --empty (no \
        entries), --session ID (repeatable). At least one is required: prune never deletes \
        every session by default. Deleted sessions go with their journal, snapshots and stack \
        rows, all in one transaction; a listed session that changed before that transaction \
        (a new entry, say) is kept and reported. Forks of a deleted session are kept (they \
        hold their own state) and listed. --dry-run lists what would go. TIME is a full date: \
        \(TimeExpression.acceptedDates).
        """)

    @OptionGroup var database: DatabaseOptions

    @Option(
      help: ArgumentHelp("Sessions idle since before TIME.", valueName: "time"))
    var idleSince: TimeExpression?

    @Flag(help: "Only forked sessions.")
    var forks = false

    @Option(help: ArgumentHelp("Only sessions forked from SESSION.", valueName: "session"))
    var forksOf: String?

    @Flag(help: "Only sessions without entries.")
    var empty = false

    @Option(
      name: .customLong("session"),
      help: ArgumentHelp("Only this session (repeatable).", valueName: "session"))
    var sessions: [String] = []

    @OptionGroup var retention: RetentionOptions

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Checks that some criterion is given.
    public func validate() throws {
      if idleSince == nil && !forks && forksOf == nil && !empty && sessions.isEmpty {
        throw ValidationError(
          "Give at least one criterion: --idle-since, --forks, --forks-of, --empty or --session.")
      }
    }

    /// Deletes the matching sessions, or lists them.
    public func run() async throws {
      try await reportingErrors {
        let idle = try idleSince.map {
          try $0.instant(option: "--idle-since")
        }
        // Everything is checked read-only; the journal is opened for writing only to write.
        if !retention.dryRun { try database.requireUnalteredSchema() }
        let reader = try await database.openReadOnly()
        for id in sessions + [forksOf].compactMap({ $0 }) {
          _ = try await reader.requireSession(SessionID(id))
        }
        let criteria = PruneCriteria(
          idleBefore: idle, forksOnly: forks, forksOf: forksOf.map(SessionID.init(rawValue:)),
          emptyOnly: empty, sessions: sessions.map(SessionID.init(rawValue:)))
        var plan = try await reader.prune(criteria, dryRun: true)
        // A failed VACUUM leaves the committed deletion: reported, then the error.
        var vacuumError: (any Error)?
        if !retention.dryRun, !plan.sessions.isEmpty {
          // Deletes what the read-only pass listed, skipping sessions that changed since.
          // Closed first: a reader of a file a killed writer left holds SQLite's shared index of
          // the log read-only, and a writer in the same process shares that index.
          try await reader.close()
          let (journal, vacuum) = try await database.openForRetention(vacuum: retention.vacuum)
          plan = try await journal.prune(plan)
          if let vacuum, plan.applied { vacuumError = RetentionOptions.vacuum(vacuum) }
        }
        try output.print {
          JSONValue.object([
            ("dryRun", .bool(retention.dryRun)),
            ("applied", .bool(plan.applied)),
            (
              "sessions",
              .array(
                plan.sessions.map { item in
                  .object([
                    ("id", .string(item.info.id.rawValue)),
                    ("entries", .int(item.info.entryCount)),
                    ("lastActivity", .optional(item.info.lastActivity.map(TimeFormat.iso))),
                    ("forkedFrom", .optional(item.info.forkedFrom?.rawValue)),
                    ("bytes", .int(item.size.totalBytes)),
                  ])
                })
            ),
            ("bytes", .int(plan.bytes)),
            ("orphanedForks", .array(plan.orphanedForks.map { .string($0.rawValue) })),
            ("changed", .array(plan.changed.map { .string($0.rawValue) })),
          ])
        } text: { out in
          let changed =
            plan.changed.isEmpty
            ? nil
            : "Kept \(plan.changed.count) session(s) that changed since they were listed: "
              + plan.changed.map(\.description).joined(separator: ", ")
          guard !plan.sessions.isEmpty else {
            out.line("No session matches; nothing was deleted.")
            if let changed { out.line(changed) }
            return
          }
          out.line(
            "\(retention.dryRun ? "Would delete" : "Deleted") \(plan.sessions.count) session(s), "
              + "\(TimeFormat.bytes(plan.bytes)):")
          var table = Table([
            ("SESSION", .left), ("ENTRIES", .right), ("LAST ACTIVITY (UTC)", .left),
            ("SIZE", .right), ("FORKED FROM", .left),
          ])
          for item in plan.sessions {
            table.add([
              item.info.id.description, String(item.info.entryCount),
              (item.info.lastActivity ?? item.info.createdAt).description.isEmpty
                ? "-" : TimeFormat.display(item.info.lastActivity ?? item.info.createdAt),
              TimeFormat.bytes(item.size.totalBytes), item.info.forkedFrom?.description ?? "",
            ])
          }
          table.lines(on: out).forEach { out.line("  " + $0) }
          if !plan.orphanedForks.isEmpty {
            out.line(
              "Kept forks of deleted sessions: "
                + plan.orphanedForks.map(\.description).joined(separator: ", "))
          }
          if let changed { out.line(changed) }
          if retention.dryRun { out.line("Dry run: nothing was deleted.") }
        }
        if let vacuumError {
          throw RetentionOptions.vacuumFailure(
            vacuumError,
            deleted: "\(plan.sessions.count) session(s), "
              + plan.sessions.map(\.info.id.description).joined(separator: ", "))
        }
      }
    }
  }
}
