#if PostgreSQL
  import Foundation
  import PostgresNIO
  import StackJournalCore

  extension PostgresJournal {
    /// The journal's statistics: the on-disk bytes of its schema's tables and indexes (with
    /// their TOAST data), the rows of each table, each session's size and snapshot coverage,
    /// and entries over time. `pageSize` is the server's block size; `freePages` and `walBytes`
    /// are SQLite's notions and stay 0 and `nil`.
    public func statistics(session: SessionID?) async throws -> StorageStatistics {
      let sizes = try await sessionSizes()
      let listed = try await sessions().filter { session == nil || $0.id == session }
      if let session, listed.isEmpty { throw stored.unknownSession(session) }
      let schema = location.schema
      let objectRows = try await rows(
        "gathering statistics",
        """
        SELECT c.relname, CASE c.relkind WHEN 'i' THEN 'index' ELSE 'table' END,
          pg_total_relation_size(c.oid) - CASE c.relkind WHEN 'r'
            THEN pg_indexes_size(c.oid) ELSE 0 END,
          current_setting('block_size')::bigint
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = \(schema) AND c.relkind IN ('r', 'i')
        ORDER BY c.relname
        """)
      var objects: [StorageStatistics.Object] = []
      var blockSize: Int64 = 8192
      for row in objectRows {
        let (name, kind, bytes, block) = try row.decode((String, String, Int64, Int64).self)
        blockSize = block
        var count: Int64?
        if kind == "table" {
          count = try await rows(
            "counting the rows of \(name)",
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table(name))")
          ).first?.decode(Int64.self)
        }
        objects.append(.init(name: name, kind: kind, rows: count, bytes: bytes))
      }
      objects.sort { ($0.bytes ?? 0, $1.name) > ($1.bytes ?? 0, $0.name) }
      var snapshots: [SessionID: [Int64]] = [:]
      for row in try await rows(
        "gathering statistics",
        "SELECT session, sequence FROM \(unescaped: table("snapshots")) ORDER BY session, sequence"
      ) {
        let (id, sequence) = try row.decode((String, Int64).self)
        snapshots[SessionID(id), default: []].append(sequence)
      }
      return StorageStatistics(
        fileBytes: objects.reduce(0) { $0 + ($1.bytes ?? 0) }, walBytes: nil,
        pageSize: Int(blockSize), freePages: 0, objects: objects,
        sessions: StorageStatistics.Session.figures(listed, snapshots: snapshots, sizes: sizes),
        activity: try await activity(session: session))
    }

    /// Entries per interval over the whole history (one session's when given), oldest first.
    private func activity(session: SessionID?) async throws -> [StorageStatistics.Activity] {
      let only = session?.rawValue
      let journal = table("journal")
      let span = try await rows(
        "gathering statistics",
        """
        SELECT min(recorded_at), max(recorded_at) FROM \(unescaped: journal)
        WHERE \(only)::text IS NULL OR session = \(only)
        """)
      guard let row = span.first,
        let (firstText, lastText) = try? row.decode((String?, String?).self),
        let first = firstText.flatMap(Timestamp.date(from:)),
        let last = lastText.flatMap(Timestamp.date(from:))
      else { return [] }
      let seconds = Int64(StorageStatistics.bucketSeconds(spanning: last.timeIntervalSince(first)))
      // Times are stored as `2025-01-31T09:30:00.000Z`; one that is not is left out.
      let buckets = try await rows(
        "gathering statistics",
        """
        SELECT floor(extract(epoch FROM (substr(recorded_at, 1, 19) || 'Z')::timestamptz)
            / \(seconds))::bigint AS bucket, count(*)
        FROM \(unescaped: journal)
        WHERE (\(only)::text IS NULL OR session = \(only))
          AND recorded_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}'
        GROUP BY bucket ORDER BY bucket
        """)
      return try buckets.map { row in
        let (bucket, entries) = try row.decode((Int64, Int64).self)
        return StorageStatistics.Activity(
          start: Date(timeIntervalSince1970: Double(bucket * seconds)), seconds: Int(seconds),
          entries: entries)
      }
    }
  }
#endif
