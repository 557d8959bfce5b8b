#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackJournalCore

  extension PostgresJournal {
    /// The schema version of the journal at `url`, the version this build writes, and the
    /// names of the migrations opening it would apply, for `stackjournal migrate --dry-run`.
    ///
    /// Read-only: the schema is checked as opening checks it (one that is not a journal, newer,
    /// or with edited migrations is refused), and never changed. A schema that does not exist
    /// yet is at version 0.
    public static func pendingMigrations(
      url: String,
      options: Options = .init()
    ) async throws -> (current: Int, target: Int, pending: [String]) {
      let location = try PostgresLocation(url: url)
      var readOnly = options
      readOnly.readOnly = true
      let version = try await withConnection(
        location, readOnly, logger: discardingLogger, doing: "reading the journal's schema"
      ) { connection in
        try await PostgresSchemaMigrator.check(connection, location).version
      }
      let pending = PostgresMigration.all.dropFirst(version).map(\.name)
      return (version, PostgresMigration.latestVersion, pending)
    }
  }
#endif
