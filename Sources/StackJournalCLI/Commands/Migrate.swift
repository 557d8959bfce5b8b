import ArgumentParser
import Foundation
import StackStorage

#if PostgreSQL
  import StackStoragePostgres
#endif

extension StackJournalCommand {
  /// `stackjournal migrate`: the only command that changes a journal's schema.
  public struct Migrate: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Bring a journal's schema to this build's version (the only command that does).",
      discussion: """
        Shows the journal's schema version (a file, or a postgres:// database), this build's, and \
        the migrations between them; applies them, each in its own transaction, unless \
        --dry-run. A file from a newer schema, or \
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
        let (plan, place) = try await database.pendingMigrations()
        var applied: [String] = []
        var version = plan.current
        if !dryRun, !plan.pending.isEmpty {
          version = try await database.migrate()
          applied = plan.pending
        }
        output.print {
          JSONValue.object([
            ("database", .string(place)),
            ("currentVersion", .int(plan.current)),
            ("targetVersion", .int(plan.target)),
            ("pending", .array(plan.pending.map(JSONValue.string))),
            ("applied", .array(applied.map(JSONValue.string))),
            ("version", .int(version)),
            ("dryRun", .bool(dryRun)),
          ])
        } text: { out in
          out.line(
            "Schema of \(place): version \(plan.current); this build: version "
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

extension DatabaseOptions {
  /// The journal's schema version, this build's, the migrations between them, and where the
  /// journal is, for messages.
  func pendingMigrations() async throws -> (
    plan: (current: Int, target: Int, pending: [String]), place: String
  ) {
    if Self.isPostgresURL(path) {
      #if PostgreSQL
        let location = try PostgresLocation(url: path)
        return (try await PostgresJournal.pendingMigrations(url: path), location.description)
      #else
        throw Self.noPostgresSupport
      #endif
    }
    try requireFile()
    return (try SQLiteJournal.pendingMigrations(at: path), path)
  }

  /// Applies the pending migrations and returns the schema version reached.
  func migrate() async throws -> Int {
    if Self.isPostgresURL(path) { return try await openPostgres(readOnly: false, migrate: true).schemaVersion }
    return try SQLiteJournal(path: path, options: .init(migrate: true)).schemaVersion
  }
}
