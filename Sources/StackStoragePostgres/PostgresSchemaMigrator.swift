#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackJournalCore

  /// Checks a database's journal schema and applies the pending migrations, each in its own
  /// transaction, recording them with their checksums in `schema_migrations`.
  ///
  /// The journal's tables live in one PostgreSQL schema, marked as StackJournal's by its comment.
  /// A schema of that name without the mark (a schema that is not ours), one whose recorded
  /// migrations are newer than this build or differ from its files, is refused before anything
  /// is written.
  enum PostgresSchemaMigrator {
    /// The comment that marks a PostgreSQL schema as a StackJournal journal.
    static let mark = "StackJournal journal"

    /// The migrations recorded in `schema_migrations`, oldest first: version, name, checksum,
    /// time applied.
    static func recordedQuery(_ tables: PostgresTables) -> PostgresQuery {
      """
      SELECT version, name, checksum, applied_at FROM \(unescaped: tables.schemaMigrations)
      ORDER BY version
      """
    }

    struct State {
      var exists: Bool
      var version: Int
    }

    /// Reads and checks the schema's state, in the connection's current transaction.
    static func check(_ connection: PostgresConnection, _ location: PostgresLocation) async throws
      -> State
    {
      let logger = connection.logger
      let schema = location.schema
      let namespace = try await connection.query(
        """
        SELECT coalesce(obj_description(n.oid, 'pg_namespace'), ''),
          (SELECT count(*) FROM pg_class c WHERE c.relnamespace = n.oid),
          EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid
            AND c.relname = \(PostgresTables.schemaMigrationsName))
        FROM pg_namespace n WHERE n.nspname = \(schema)
        """, logger: logger
      ).collect()
      guard let row = namespace.first else { return State(exists: false, version: 0) }
      let (comment, objects, hasMigrations) = try row.decode((String, Int64, Bool).self)
      if objects == 0 && comment.isEmpty { return State(exists: false, version: 0) }
      guard comment == mark, hasMigrations else {
        throw StorageError(
          code: .notStackJournal,
          message: "The PostgreSQL schema `\(schema)` of \(location.description) is not a "
            + "StackJournal journal (it holds other tables). Nothing was changed; choose another "
            + "schema with ?schema=NAME in the URL.")
      }
      let recorded = try await connection.query(
        """
        SELECT version, name, checksum FROM \(unescaped: location.tables.schemaMigrations)
        ORDER BY version
        """, logger: logger
      ).collect()
      var version = 0
      for row in recorded {
        let (recordedVersion, name, checksum) = try row.decode((Int32, String, String).self)
        let number = Int(recordedVersion)
        guard number <= PostgresMigration.latestVersion else {
          throw StorageError(
            code: .newerSchema,
            message: "The journal in \(location.description) has schema version \(number) "
              + "(\(name)), newer than version \(PostgresMigration.latestVersion) this build "
              + "knows. Nothing was changed; use a newer StackJournal.")
        }
        let shipped = PostgresMigration.all[number - 1]
        guard shipped.name == name, shipped.checksum == checksum, number == version + 1 else {
          throw StorageError(
            code: .checksumMismatch,
            message: "The journal in \(location.description) records migration \(number) as "
              + "\(name) with checksum \(checksum.prefix(12))…, but this build's migration "
              + "\(number) is \(shipped.name) with checksum \(shipped.checksum.prefix(12))…. "
              + "Nothing was changed; a shipped migration must never be edited.")
        }
        version = number
      }
      return State(exists: true, version: version)
    }

    /// Checks the schema and, when `migrate`, applies what is pending; returns the version.
    ///
    /// Each migration runs in its own transaction holding an advisory lock on the schema's name,
    /// so two processes opening one database at once apply each migration once.
    static func prepare(
      _ connection: PostgresConnection,
      _ location: PostgresLocation,
      migrate: Bool,
      writing: Bool,
      now: Date = Date(),
      logger: Logger
    ) async throws -> Int {
      let state = try await check(connection, location)
      if state.exists {
        // Before anything is written or read: what the migrations made and nothing else.
        try await PostgresSchemaShape.requireUnaltered(
          connection, location, version: state.version, writing: writing)
      }
      if state.version == PostgresMigration.latestVersion { return state.version }
      guard migrate else {
        throw StorageError(
          code: .olderSchema,
          message: state.exists
            ? "The journal in \(location.description) has schema version \(state.version); "
              + "this build needs \(PostgresMigration.latestVersion). Nothing was changed; run "
              + "`stackjournal migrate --db \(location.description)`."
            : "There is no StackJournal journal in \(location.description) (no schema "
              + "`\(location.schema)`). Record into it first, or check the URL's database and "
              + "schema.")
      }
      let schema = location.schema
      for migration in PostgresMigration.all.dropFirst(state.version) {
        try await connection.query("BEGIN", logger: logger)
        do {
          try await connection.query(
            "SELECT pg_advisory_xact_lock(hashtext(\("stackjournal migrate " + schema)))",
            logger: logger)
          let current = try await check(connection, location)
          let applies = current.version < migration.version
          if applies {
            if !current.exists { try await createSchema(connection, schema: schema) }
            try await apply(migration, connection, schema: schema, now: now)
          }
          try await connection.query("COMMIT", logger: logger)
          if applies {
            logger.notice(
              "applied a journal migration",
              metadata: [
                "journal": "\(location.description)", "migration.version": "\(migration.version)",
                "migration.name": "\(migration.name)",
              ])
          }
        } catch {
          _ = try? await connection.query("ROLLBACK", logger: logger)
          throw error
        }
      }
      return PostgresMigration.latestVersion
    }

    /// Creates the journal's schema, marked as StackJournal's, with its `schema_migrations`
    /// table, in the connection's current transaction.
    static func createSchema(_ connection: PostgresConnection, schema: String) async throws {
      let logger = connection.logger
      try await connection.query("CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)", logger: logger)
      try await connection.query(
        "COMMENT ON SCHEMA \(unescaped: schema) IS '\(unescaped: mark)'", logger: logger)
      try await connection.query(
        """
        CREATE TABLE \(unescaped: PostgresTables(schema: schema).schemaMigrations) (
          version integer NOT NULL PRIMARY KEY,
          name text NOT NULL,
          checksum text NOT NULL,
          applied_at text NOT NULL
        )
        """, logger: logger)
    }

    /// Applies one migration to `schema` and records it, in the connection's current
    /// transaction.
    static func apply(
      _ migration: PostgresMigration, _ connection: PostgresConnection, schema: String, now: Date
    ) async throws {
      let logger = connection.logger
      try await connection.query("SET LOCAL search_path TO \(unescaped: schema)", logger: logger)
      let tag = "$stackjournal_migration$"
      precondition(
        !migration.sql.contains(tag) && !migration.sql.contains("$stackjournal_do$"),
        "\(migration.name) contains a dollar-quote tag the migrator uses.")
      try await connection.query(
        PostgresQuery(
          unsafeSQL: "DO $stackjournal_do$ BEGIN EXECUTE \(tag)\(migration.sql)\(tag); "
            + "END $stackjournal_do$"),
        logger: logger)
      try await connection.query(
        """
        INSERT INTO \(unescaped: PostgresTables(schema: schema).schemaMigrations)
          (version, name, checksum, applied_at)
        VALUES (\(Int32(migration.version)), \(migration.name), \(migration.checksum),
          \(Timestamp.string(from: now)))
        """, logger: logger)
    }
  }
#endif
