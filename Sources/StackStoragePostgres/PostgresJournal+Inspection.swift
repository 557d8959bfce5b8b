#if PostgreSQL
  import Foundation
  import PostgresNIO
  import StackJournalCore

  extension PostgresJournal: InspectableJournal {
    /// How many rows ``journalRows(session:matching:_:)`` reads per page.
    static let inspectionPageSize = 512

    /// The server's URL without its password, and the schema.
    public var locationDescription: String { location.description }

    /// Calls `body` with the session's entries that match `query`, as stored (no upcaster
    /// runs), in sequence order (newest first when the query says so); `body` returns `false`
    /// to stop. Each page is one statement; with a read-only journal each runs in a read-only
    /// transaction. `typeGlob` has SQLite's GLOB meaning (`*`, `?`, `[…]`, case-sensitive).
    public func journalRows(
      session: SessionID,
      matching query: JournalQuery,
      _ body: (JournalRow) throws -> Bool
    ) async throws {
      var filter = JournalFilter(session: session)
      if let from = query.fromSequence { filter.add("sequence >= ", from) }
      if let to = query.toSequence { filter.add("sequence <= ", to) }
      if let since = query.since {
        filter.add("recorded_at >= ", try Timestamp.stored(since, "The start of the times asked"))
      }
      if let until = query.until {
        filter.add("recorded_at <= ", try Timestamp.stored(until, "The end of the times asked"))
      }
      if let glob = query.typeGlob { filter.add("type ~ ", Self.regularExpression(glob: glob)) }
      let activity = "reading the journal of session \(session)"
      // The last N matching entries start (or, newest first, end) at the N-th newest one.
      var boundary: Int64?
      var first = filter
      let offset = first.bind(Int64(max(0, (query.last ?? 1) - 1)))
      let probe = try await rows(
        activity,
        PostgresQuery(
          unsafeSQL: "SELECT (SELECT sequence FROM \(table("journal")) WHERE \(first.sql) "
            + "ORDER BY sequence DESC LIMIT 1 OFFSET \(offset)) FROM \(table("sessions")) "
            + "WHERE id = $1",
          binds: first.bindings))
      guard let row = probe.first else { throw stored.unknownSession(session) }
      if let last = query.last {
        guard last > 0, let found = try row.decode(Int64?.self) else { return }
        boundary = found
      }
      let ascending = !query.newestFirst
      var cursor: Int64? = nil
      var remaining = query.last ?? Int.max
      while remaining > 0 {
        var page = filter
        if ascending, let start = boundary, cursor == nil { page.add("sequence >= ", start) }
        if let cursor { page.add(ascending ? "sequence > " : "sequence < ", cursor) }
        let limit = Swift.min(Self.inspectionPageSize, remaining)
        let limitParameter = page.bind(Int64(limit))
        let rows = try await rows(
          activity,
          PostgresQuery(
            unsafeSQL: "SELECT sequence, recorded_at, type, version, payload, delta FROM "
              + "\(table("journal")) WHERE \(page.sql) ORDER BY sequence "
              + "\(ascending ? "ASC" : "DESC") LIMIT \(limitParameter)",
            binds: page.bindings))
        for row in rows {
          let (sequence, recordedAt, type, version, payload, delta) = try row.decode(
            (Int64, String, String, Int32, String, String).self)
          let entry = JournalRow(
            sequence: sequence,
            recordedAt: try stored.date(
              recordedAt, "time of entry \(sequence) of session \(session)"),
            type: type, version: Int(version), payload: payload, delta: delta)
          cursor = sequence
          remaining -= 1
          guard try body(entry) else { return }
        }
        if rows.count < limit { return }
      }
    }

    /// The sequence of the session's last journal entry, or `nil` when it has none.
    public func lastEntrySequence(session: SessionID) async throws -> Int64? {
      let rows = try await rows(
        "reading the last entry of session \(session)",
        """
        SELECT (SELECT max(sequence) FROM \(unescaped: table("journal"))
          WHERE session = \(session.rawValue))
        FROM \(unescaped: table("sessions")) WHERE id = \(session.rawValue)
        """)
      guard let row = rows.first else { throw stored.unknownSession(session) }
      return try row.decode(Int64?.self)
    }

    /// The session's head sequence and the sequence of its oldest snapshot.
    public func journalBounds(session: SessionID) async throws -> (base: Int64, head: Int64) {
      let rows = try await rows(
        "reading the bounds of session \(session)",
        """
        SELECT head_sequence, (SELECT min(sequence) FROM \(unescaped: table("snapshots"))
          WHERE session = \(session.rawValue))
        FROM \(unescaped: table("sessions")) WHERE id = \(session.rawValue)
        """)
      guard let row = rows.first else { throw stored.unknownSession(session) }
      let (head, base) = try row.decode((Int64, Int64?).self)
      return (base ?? 0, head)
    }

    /// The time an entry was recorded; the session's creation time for sequence 0, and the
    /// snapshot's time for the oldest sequence of a compacted session.
    public func recordedAt(session: SessionID, sequence: Int64) async throws -> Date {
      try recordedAt(
        try await rows(
          "reading the time of entry \(sequence) of session \(session)",
          recordedAtQuery(session: session, sequence: sequence)),
        session: session, sequence: sequence)
    }

    /// The statement of ``recordedAt(session:sequence:)``.
    func recordedAtQuery(session: SessionID, sequence: Int64) -> PostgresQuery {
      """
        SELECT head_sequence, CASE WHEN \(sequence) = 0 THEN created_at ELSE coalesce(
          (SELECT recorded_at FROM \(unescaped: table("journal"))
            WHERE session = \(session.rawValue) AND sequence = \(sequence)),
          (SELECT recorded_at FROM \(unescaped: table("snapshots"))
            WHERE session = \(session.rawValue) AND sequence = \(sequence))) END
        FROM \(unescaped: table("sessions")) WHERE id = \(session.rawValue)
        """
    }

    /// The time the rows of ``recordedAtQuery(session:sequence:)`` give.
    func recordedAt(_ rows: [PostgresRow], session: SessionID, sequence: Int64) throws -> Date {
      guard let row = rows.first else { throw stored.unknownSession(session) }
      let (head, text) = try row.decode((Int64, String?).self)
      guard let text else { throw stored.outOfRange(session, sequence, head: head) }
      return try stored.date(text, "time of entry \(sequence) of session \(session)")
    }

    /// The sequences of the session's snapshots, oldest first.
    public func snapshotSequences(session: SessionID) async throws -> [Int64] {
      let rows = try await rows(
        "listing the snapshots of session \(session)",
        """
        SELECT n.sequence FROM \(unescaped: table("sessions")) s
        LEFT JOIN \(unescaped: table("snapshots")) n ON n.session = s.id
        WHERE s.id = \(session.rawValue) ORDER BY n.sequence
        """)
      guard !rows.isEmpty else { throw stored.unknownSession(session) }
      return try rows.compactMap { try $0.decode(Int64?.self) }
    }

    /// The stored bytes of each session: the UTF-8 length of its rows' text, with the same
    /// fixed cost per row as ``SQLiteJournal``'s count, so both backends report the same size
    /// for the same session.
    public func sessionSizes() async throws -> [SessionID: SessionSize] {
      try decodeSizes(try await rows("measuring sessions", sizesQuery))
    }

    /// The query of every session's stored bytes.
    var sizesQuery: PostgresQuery {
      """
      SELECT s.id,
        coalesce((SELECT sum(octet_length(type) + octet_length(payload) + octet_length(delta)
          + 40) FROM \(unescaped: table("journal")) WHERE session = s.id), 0)::bigint,
        coalesce((SELECT sum(octet_length(state) + octet_length(stacks) + 40)
          FROM \(unescaped: table("snapshots")) WHERE session = s.id), 0)::bigint,
        (SELECT count(*) FROM \(unescaped: table("snapshots")) WHERE session = s.id),
        coalesce((SELECT sum(octet_length(state) + octet_length(path) + 24)
          FROM \(unescaped: table("stack_elements")) WHERE session = s.id), 0)::bigint
      FROM \(unescaped: table("sessions")) s
      """
    }

    /// The sizes of the rows of ``sizesQuery``.
    func decodeSizes(_ rows: [PostgresRow]) throws -> [SessionID: SessionSize] {
      var sizes: [SessionID: SessionSize] = [:]
      for row in rows {
        let (id, journal, snapshots, snapshotCount, stacks) = try row.decode(
          (String, Int64, Int64, Int64, Int64).self)
        sizes[SessionID(id)] = SessionSize(
          journalBytes: journal, snapshotBytes: snapshots, stackBytes: stacks,
          snapshotCount: Int(snapshotCount))
      }
      return sizes
    }

    /// The POSIX regular expression that matches what SQLite's GLOB `pattern` matches: `*` any
    /// text, `?` one character, `[…]` (`[^…]` negated) a set; everything else literally.
    static func regularExpression(glob pattern: String) -> String {
      var result = "^"
      var characters = pattern.makeIterator()
      while let character = characters.next() {
        switch character {
        case "*": result += ".*"
        case "?": result += "."
        case "[":
          // A set is copied up to its closing bracket; a `]` right after `[` or `[^` is a member.
          var set = "["
          var members = 0
          var closed = false
          while let next = characters.next() {
            if next == "]" && members > 0 {
              closed = true
              break
            }
            if next == "^" && members == 0 && set == "[" {
              set.append("^")
              continue
            }
            set += next == "\\" ? "\\\\" : String(next)
            members += 1
          }
          result += closed ? set + "]" : "\\[" + Self.escaped(String(set.dropFirst()))
        default: result += Self.escaped(String(character))
        }
      }
      return result + "$"
    }

    private static func escaped(_ text: String) -> String {
      var result = ""
      for character in text {
        if "\\.^$|?*+()[]{}".contains(character) { result.append("\\") }
        result.append(character)
      }
      return result
    }
  }

  /// The WHERE clause of a journal query, with its parameters: `$1` is the session.
  struct JournalFilter {
    private(set) var sql: String
    private(set) var bindings = PostgresBindings()

    init(session: SessionID) {
      sql = "session = $1"
      bindings.append(session.rawValue)
    }

    /// Adds a parameter and returns its placeholder.
    mutating func bind(_ value: some PostgresNonThrowingEncodable) -> String {
      bindings.append(value)
      return "$\(bindings.count)"
    }

    /// Adds `AND <condition><value>`.
    mutating func add(_ condition: String, _ value: some PostgresNonThrowingEncodable) {
      let placeholder = bind(value)
      sql += " AND \(condition)\(placeholder)"
    }
  }
#endif
