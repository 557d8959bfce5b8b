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
      let objectRows = try await rows("gathering statistics", tables.objectsQuery)
      var objects: [StorageStatistics.Object] = []
      var blockSize: Int64 = 8192
      for row in objectRows {
        let (name, kind, bytes, block) = try row.decode((String, String, Int64, Int64).self)
        blockSize = block
        var count: Int64?
        if kind == "table" {
          count = try await rows("counting the rows of \(name)", tables.rowCountQuery(of: name))
            .first?.decode(Int64.self)
        }
        objects.append(.init(name: name, kind: kind, rows: count, bytes: bytes))
      }
      objects.sort { ($0.bytes ?? 0, $1.name) > ($1.bytes ?? 0, $0.name) }
      var snapshots: [SessionID: [Int64]] = [:]
      for row in try await rows("gathering statistics", snapshotRows.allSequences) {
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
      let span = try await rows("gathering statistics", entryRows.timeSpan(of: only))
      guard let row = span.first,
        let (firstText, lastText) = try? row.decode((String?, String?).self),
        let first = firstText.flatMap(Timestamp.date(from:)),
        let last = lastText.flatMap(Timestamp.date(from:))
      else { return [] }
      let seconds = Int64(StorageStatistics.bucketSeconds(spanning: last.timeIntervalSince(first)))
      let buckets = try await rows(
        "gathering statistics", entryRows.entriesPerInterval(of: only, seconds: seconds))
      return try buckets.map { row in
        let (bucket, entries) = try row.decode((Int64, Int64).self)
        return StorageStatistics.Activity(
          start: Date(timeIntervalSince1970: Double(bucket * seconds)), seconds: Int(seconds),
          entries: entries)
      }
    }
  }
#endif
