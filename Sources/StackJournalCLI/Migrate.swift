import ArgumentParser
import Foundation
import StackStorage

extension StackJournalCommand {
  /// `stackjournal migrate`: the only command that changes a journal's schema.
  public struct Migrate: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Bring a journal's schema to this build's version (the only command that does).",
      discussion: """
        Shows the file's schema version, this build's, and the migrations between them; applies \
        them, each in its own transaction, unless --dry-run. A file from a newer schema, or \
        whose recorded migrations were edited, is refused and left unchanged.
        """)

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Only show what would be applied.")
    var dryRun = false

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Shows and applies the pending migrations.
    public func run() async throws {
      try await reportingErrors {
        try database.requireFile()
        let plan = try SQLiteJournal.pendingMigrations(at: database.path)
        var applied: [String] = []
        var version = plan.current
        if !dryRun, !plan.pending.isEmpty {
          let journal = try SQLiteJournal(path: database.path, options: .init(migrate: true))
          version = journal.schemaVersion
          applied = plan.pending
        }
        try output.print {
          JSONValue.object([
            ("database", .string(database.path)),
            ("currentVersion", .int(plan.current)),
            ("targetVersion", .int(plan.target)),
            ("pending", .array(plan.pending.map(JSONValue.string))),
            ("applied", .array(applied.map(JSONValue.string))),
            ("version", .int(version)),
            ("dryRun", .bool(dryRun)),
          ])
        } text: { out in
          out.line(
            "Schema of \(database.path): version \(plan.current); this build: version "
              + "\(plan.target).")
          guard !plan.pending.isEmpty else {
            out.line("Up to date: nothing to migrate.")
            return
          }
          if dryRun {
            out.line("Would apply (dry run, nothing changed):")
            plan.pending.forEach { out.line("  \($0)") }
          } else {
            out.line("Applied:")
            applied.forEach { out.line("  \($0)") }
            out.line("Now at schema version \(version).")
          }
        }
      }
    }
  }
}
