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
      let filter = try entryRows.filter(session: session, matching: query)
      let activity = "reading the journal of session \(session)"
      // The last N matching entries start (or, newest first, end) at the N-th newest one.
      var boundary: Int64?
      let offset = Int64(max(0, (query.last ?? 1) - 1))
      let probe = try await rows(
        activity, sessionRows.value(entryRows.newest(filter, offset: offset), of: session))
      guard let row = probe.first else { throw stored.unknownSession(session) }
      if let last = query.last {
        guard last > 0, let found = try row.decode(Int64?.self) else { return }
        boundary = found
      }
      let ascending = !query.newestFirst
      var cursor: Int64? = nil
      var remaining = query.last ?? Int.max
      while remaining > 0 {
        let limit = Swift.min(Self.inspectionPageSize, remaining)
        let rows = try await rows(
          activity,
          entryRows.inspectionPage(
            filter, from: boundary, after: cursor, ascending: ascending, limit: limit))
        for row in rows {
          let entry = try PostgresJournalRows.row(row)
          // A row whose time cannot be read is refused here, as restoring refuses it.
          _ = try stored.date(
            entry.recordedAt, "time of entry \(entry.sequence) of session \(session)")
          cursor = entry.sequence
          remaining -= 1
          guard try body(entry) else { return }
        }
        if rows.count < limit { return }
      }
    }

    /// The sequence of the session's last journal entry, or `nil` when it has none.
    public func lastEntrySequence(session: SessionID) async throws -> Int64? {
      let rows = try await rows(
        "reading the last entry of session \(session)", sessionRows.lastEntry(session))
      guard let row = rows.first else { throw stored.unknownSession(session) }
      return try row.decode(Int64?.self)
    }

    /// The session's head sequence and the sequence of its oldest snapshot.
    public func journalBounds(session: SessionID) async throws -> (base: Int64, head: Int64) {
      let rows = try await rows(
        "reading the bounds of session \(session)", sessionRows.bounds(session))
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
          sessionRows.recordedAt(session, sequence: sequence)),
        session: session, sequence: sequence)
    }

    /// The time the rows of ``PostgresSessionRows/recordedAt(_:sequence:)`` give.
    func recordedAt(_ rows: [PostgresRow], session: SessionID, sequence: Int64) throws -> Date {
      guard let row = rows.first else { throw stored.unknownSession(session) }
      let (head, text) = try row.decode((Int64, String?).self)
      guard let text else { throw stored.outOfRange(session, sequence, head: head) }
      return try stored.date(text, "time of entry \(sequence) of session \(session)")
    }

    /// The sequences of the session's snapshots, oldest first.
    public func snapshotSequences(session: SessionID) async throws -> [Int64] {
      let rows = try await rows(
        "listing the snapshots of session \(session)", sessionRows.snapshotSequences(session))
      guard !rows.isEmpty else { throw stored.unknownSession(session) }
      return try rows.compactMap { try $0.decode(Int64?.self) }
    }

    /// The stored bytes of each session: the UTF-8 length of its rows' text, with the same
    /// fixed cost per row as `SQLiteJournal`'s count, so both backends report the same size
    /// for the same session.
    public func sessionSizes() async throws -> [SessionID: SessionSize] {
      try decodeSizes(try await rows("measuring sessions", sessionRows.sizes))
    }

    /// The sizes of the rows of ``PostgresSessionRows/sizes``.
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
#endif
