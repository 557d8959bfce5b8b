#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackJournalCore

  /// The schema the migrations made is the schema allowed: the journal's schema is compared,
  /// object by object, with a reference the same migrations build in a scratch schema inside a
  /// transaction that is rolled back. A trigger, a rule, a policy, a routine or an index added by
  /// hand, a routine replaced, a column changed, or a view standing where a table was, is a
  /// deviation: `verify` lists each, a journal opened to write refuses all of them before
  /// writing, and one opened to read refuses a changed table, so no command reads a view in its
  /// place.
  enum PostgresSchemaShape {
    /// The reference shapes built so far, by schema version.
    final class ReferenceCache: @unchecked Sendable {
      private let lock = NSLock()
      private var shapes: [Int: Set<String>] = [:]

      subscript(version: Int) -> Set<String>? {
        get { lock.withLock { shapes[version] } }
        set { lock.withLock { shapes[version] = newValue } }
      }
    }

    /// One sentence per deviation, and whether any concerns a table or its columns.
    struct Deviations: Sendable {
      var problems: [String]
      var tablesDiffer: Bool
    }

    /// The objects of `schema`, one canonical line each, the schema's name replaced by `$schema`.
    /// Read with an empty search path, so every name a definition mentions is qualified alike.
    static func read(_ connection: PostgresConnection, schema: String) async throws -> Set<String> {
      let logger = connection.logger
      let rows = try await connection.query(
        """
        WITH n AS (SELECT oid FROM pg_namespace WHERE nspname = \(schema))
        SELECT 'relation ' || c.relname || ' of kind ' || c.relkind::text
          FROM pg_class c, n WHERE c.relnamespace = n.oid AND c.relkind <> 't'
        UNION ALL
        SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
            || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
            || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
            || coalesce(' COLLATE ' || co.collname, '')
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN n ON c.relnamespace = n.oid
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 100
          WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f') AND a.attnum > 0 AND NOT a.attisdropped
        UNION ALL
        SELECT 'index ' || pg_get_indexdef(i.indexrelid)
          FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN n ON c.relnamespace = n.oid
        UNION ALL
        SELECT 'constraint ' || k.conname || ' ' || pg_get_constraintdef(k.oid)
          FROM pg_constraint k JOIN n ON k.connamespace = n.oid
        UNION ALL
        SELECT 'trigger ' || t.tgname || ' on ' || c.relname
          FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN n ON c.relnamespace = n.oid
          WHERE NOT t.tgisinternal
        UNION ALL
        SELECT 'rule ' || r.rulename || ' on ' || c.relname
          FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class JOIN n ON c.relnamespace = n.oid
          WHERE r.rulename <> '_RETURN'
        UNION ALL
        SELECT 'policy ' || p.polname || ' on ' || c.relname
          FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid JOIN n ON c.relnamespace = n.oid
        UNION ALL
        SELECT 'row-level security on ' || c.relname
          FROM pg_class c JOIN n ON c.relnamespace = n.oid WHERE c.relrowsecurity
        UNION ALL
        SELECT 'routine ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid)
            || ') ' || md5(replace(replace(p.prosrc, '"' || \(schema) || '"', '$schema'),
              \(schema), '$schema'))
            || ' ' || coalesce(array_to_string(p.proconfig, ','), '')
          FROM pg_proc p JOIN n ON p.pronamespace = n.oid
        """, logger: logger
      ).collect()
      var lines = Set<String>()
      for row in rows {
        let line = try row.decode(String.self)
        lines.insert(
          line.replacingOccurrences(of: "\"\(schema)\".", with: "$schema.")
            .replacingOccurrences(of: "\(schema).", with: "$schema.")
            .replacingOccurrences(of: "search_path=\(schema)", with: "search_path=$schema"))
      }
      return lines
    }

    /// What the migrations make, by version; built once per process.
    private static let references = ReferenceCache()

    /// The objects the migrations through `version` make, built in a scratch schema in a
    /// transaction that is rolled back (so it needs the right to create a schema, not to keep
    /// one). `nil` when the server does not allow it.
    static func reference(_ connection: PostgresConnection, version: Int) async throws
      -> Set<String>?
    {
      if let known = references[version] { return known }
      let logger = connection.logger
      let scratch = "stackjournal_reference_\(UInt32.random(in: 0...UInt32.max))"
      try await connection.query("BEGIN READ WRITE", logger: logger)
      do {
        try await PostgresSchemaMigrator.createSchema(connection, schema: scratch)
        for migration in PostgresMigration.all.prefix(version) {
          try await PostgresSchemaMigrator.apply(migration, connection, schema: scratch, now: Date())
        }
        try await connection.query("SET LOCAL search_path TO ''", logger: logger)
        let shape = try await read(connection, schema: scratch)
        _ = try? await connection.query("ROLLBACK", logger: logger)
        references[version] = shape
        return shape
      } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
        _ = try? await connection.query("ROLLBACK", logger: logger)
        return nil
      } catch {
        _ = try? await connection.query("ROLLBACK", logger: logger)
        throw error
      }
    }

    /// How the journal's schema differs from what its migrations made.
    static func deviations(
      _ connection: PostgresConnection, _ location: PostgresLocation, version: Int
    ) async throws -> Deviations {
      guard let expected = try await reference(connection, version: version) else {
        return Deviations(problems: [], tablesDiffer: false)
      }
      let logger = connection.logger
      try await connection.query("BEGIN", logger: logger)
      let present: Set<String>
      do {
        try await connection.query("SET LOCAL search_path TO ''", logger: logger)
        present = try await read(connection, schema: location.schema)
        try await connection.query("COMMIT", logger: logger)
      } catch {
        _ = try? await connection.query("ROLLBACK", logger: logger)
        throw error
      }
      var problems: [String] = []
      var tablesDiffer = false
      // Relations first, then columns: a table replaced says so before what follows from it.
      func order(_ line: String) -> (Int, String) {
        (line.hasPrefix("relation ") ? 0 : line.hasPrefix("column ") ? 1 : 2, line)
      }
      for line in present.subtracting(expected).sorted(by: { order($0) < order($1) }) {
        problems.append("\(StorageError.printable(line)) is not part of the schema the migrations made")
        if line.hasPrefix("relation ") || line.hasPrefix("column ") { tablesDiffer = true }
      }
      for line in expected.subtracting(present).sorted(by: { order($0) < order($1) }) {
        problems.append("\(StorageError.printable(line)), which the migrations made, is missing")
        if line.hasPrefix("relation ") || line.hasPrefix("column ") { tablesDiffer = true }
      }
      return Deviations(problems: problems, tablesDiffer: tablesDiffer)
    }

    /// Refuses a journal whose schema deviates: any deviation when it is opened to write, a
    /// changed table when it is opened to read.
    static func requireUnaltered(
      _ connection: PostgresConnection, _ location: PostgresLocation, version: Int,
      writing: Bool
    ) async throws {
      let found = try await deviations(connection, location, version: version)
      guard !found.problems.isEmpty, writing || found.tablesDiffer else { return }
      throw StorageError(
        code: .alteredSchema,
        message: "The journal's schema in \(location.description) was changed by hand: "
          + found.problems.prefix(3).joined(separator: "; ")
          + (found.problems.count > 3 ? "; and \(found.problems.count - 3) more" : "")
          + ". Nothing was \(writing ? "written" : "read"); run `stackjournal verify` for the "
          + "whole list, and drop what was added.")
    }
  }
#endif
