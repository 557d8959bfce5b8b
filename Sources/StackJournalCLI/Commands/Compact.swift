import ArgumentParser
import Foundation
import StackJournalCore

extension StackJournalCommand {
  /// `stackjournal compact SESSION --keep-snapshots K`: explicit retention of one session.
  public struct Compact: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Drop a session's history below its oldest kept snapshot (explicit retention).",
      discussion: """
        Keeps the last K snapshots and the journal entries after the oldest of them; deletes \
        older snapshots and the entries at or below it, in one transaction. The stacks at every \
        kept sequence, and restores from them, stay as they were; earlier sequences can no \
        longer be shown. A session that does not verify is refused. Nothing is ever compacted \
        implicitly. --dry-run reports what would go. Freed pages are reused by SQLite; \
        --vacuum gives them back to the disk.
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var sessionArgument: SessionArgument

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("How many of the latest snapshots to keep.", valueName: "k"))
    var keepSnapshots: Int

    @OptionGroup var retention: RetentionOptions

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Checks the count.
    public func validate() throws {
      try NumberOption.requireCount(keepSnapshots, "--keep-snapshots", atLeast: 1)
    }

    /// Compacts, or reports what would go.
    public func run() async throws {
      try await reportingErrors {
        // Everything is checked read-only; the journal is opened for writing only to write.
        if !retention.dryRun { try database.requireUnalteredSchema() }
        let reader = try await database.openReadOnly()
        let session = sessionArgument.id
        _ = try await reader.requireSession(session)
        var plan = try await reader.compact(session, keepSnapshots: keepSnapshots, dryRun: true)
        // A failed VACUUM leaves the committed deletion: reported, then the error.
        var vacuumError: (any Error)?
        if !retention.dryRun, !plan.isEmpty {
          // Closed first: a reader of a file a killed writer left holds SQLite's shared index of
          // the log read-only, and a writer in the same process shares that index.
          try await reader.close()
          let (journal, vacuum) = try await database.openForRetention(vacuum: retention.vacuum)
          plan = try await journal.compact(session, keepSnapshots: keepSnapshots, dryRun: false)
          if let vacuum, plan.applied { vacuumError = RetentionOptions.vacuum(vacuum) }
        }
        try output.print {
          JSONValue.object([
            ("session", .string(session.rawValue)),
            ("dryRun", .bool(retention.dryRun)),
            ("applied", .bool(plan.applied)),
            ("keptSnapshots", .array(plan.keptSnapshots.map { .int($0) })),
            ("droppedSnapshots", .array(plan.droppedSnapshots.map { .int($0) })),
            ("droppedEntries", .int(plan.droppedEntryCount)),
            ("droppedFrom", plan.droppedEntries.map { .int($0.lowerBound) } ?? .null),
            ("droppedThrough", plan.droppedEntries.map { .int($0.upperBound) } ?? .null),
            ("droppedBytes", .int(plan.droppedBytes)),
            ("forksBeforeCut", .array(plan.forksBeforeCut.map { .string($0.rawValue) })),
          ])
        } text: { out in
          if plan.isEmpty {
            out.line(
              "Session \(session) has \(plan.keptSnapshots.count) snapshot(s) and no history below "
                + "the oldest kept one: nothing to compact.")
            return
          }
          let verb = retention.dryRun ? "Would drop" : "Dropped"
          out.line(
            "\(verb) from session \(session): \(plan.droppedEntryCount) entries"
              + (plan.droppedEntries.map { " (\($0.lowerBound)…\($0.upperBound))" } ?? "")
              + " and \(plan.droppedSnapshots.count) snapshot(s), "
              + "\(TimeFormat.bytes(plan.droppedBytes)).")
          out.line(
            "Kept snapshots at \(plan.keptSnapshots.map(String.init).joined(separator: ", ")); the "
              + "journal \(retention.dryRun ? "would start" : "now starts") after "
              + "\(plan.keptSnapshots[0]).")
          if !plan.forksBeforeCut.isEmpty {
            out.line(
              "Forks started in the dropped history (they keep their own state): "
                + plan.forksBeforeCut.map(\.description).joined(separator: ", "))
          }
          if retention.dryRun { out.line("Dry run: nothing was changed.") }
        }
        if let vacuumError {
          throw RetentionOptions.vacuumFailure(
            vacuumError,
            deleted: "\(plan.droppedEntryCount) entries"
              + (plan.droppedEntries.map { " (\($0.lowerBound)…\($0.upperBound))" } ?? "")
              + " and \(plan.droppedSnapshots.count) snapshot(s) of session \(session)")
        }
      }
    }
  }
}
