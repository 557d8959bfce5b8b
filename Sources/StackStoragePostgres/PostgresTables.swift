#if PostgreSQL
  import PostgresNIO

  /// The names of the journal's tables and of the functions its statements call, qualified with
  /// the journal's PostgreSQL schema: the one spelling of each in this module.
  ///
  /// Each table's statements are written by the type that owns it: ``PostgresSessionRows``
  /// (`sessions`), ``PostgresJournalRows`` (`journal`), ``PostgresSnapshotRows`` (`snapshots`),
  /// ``PostgresStackRows`` (`stacks` and `stack_elements`) and ``PostgresSchemaMigrator``
  /// (`schema_migrations`).
  struct PostgresTables: Sendable {
    /// The unqualified name of the table of applied migrations, as the catalog lists it.
    static let schemaMigrationsName = "schema_migrations"

    /// The journal's PostgreSQL schema.
    let schema: String

    var sessions: String { qualified("sessions") }
    var journal: String { qualified("journal") }
    var snapshots: String { qualified("snapshots") }
    var stacks: String { qualified("stacks") }
    var stackElements: String { qualified("stack_elements") }
    var schemaMigrations: String { qualified(Self.schemaMigrationsName) }

    /// The procedure that appends an entry and commits before it answers (schema 2).
    var appendEntryCommitted: String { qualified("append_entry_committed") }
    /// The function that creates a session with its snapshot 0 and stack rows.
    var createSession: String { qualified("create_session") }

    /// `name` in the journal's schema.
    func qualified(_ name: String) -> String { "\(schema).\(name)" }

    /// Every table and index of the schema, from the catalog: its name, `table` or `index`, its
    /// bytes on disk (with its TOAST data; a table's without its indexes) and the server's block
    /// size.
    var objectsQuery: PostgresQuery {
      """
      SELECT c.relname, CASE c.relkind WHEN 'i' THEN 'index' ELSE 'table' END,
        pg_total_relation_size(c.oid) - CASE c.relkind WHEN 'r'
          THEN pg_indexes_size(c.oid) ELSE 0 END,
        current_setting('block_size')::bigint
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = \(schema) AND c.relkind IN ('r', 'i')
      ORDER BY c.relname
      """
    }

    /// The number of rows of the schema's table `name`, as the catalog names it.
    func rowCountQuery(of name: String) -> PostgresQuery {
      PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(qualified(name))")
    }
  }

  extension PostgresLocation {
    /// The names of the journal's tables and functions in the location's schema.
    var tables: PostgresTables { PostgresTables(schema: schema) }
  }
#endif
