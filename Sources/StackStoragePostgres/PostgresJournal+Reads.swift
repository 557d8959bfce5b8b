#if PostgreSQL
  import Foundation
  import PostgresNIO
  import StackNavigation
  import StackJournalCore

  extension PostgresJournal {
    /// How many entries ``entries(session:after:through:_:)`` reads per page.
    static let entryPageSize = 256

    /// The sequence of the session's last entry; 0 before the first one.
    public func headSequence(session: SessionID) async throws -> Int64 {
      let rows = try await rows(
        "reading the head of session \(session)",
        sessionRows.head(session).query)
      guard let row = rows.first else { throw stored.unknownSession(session) }
      return try row.decode(Int64.self)
    }

    /// Calls `body` with the entries after `after` through `through` (the head when `nil`), in
    /// ascending order, read a page at a time; `body` returns `false` to stop.
    ///
    /// `body` runs outside any database access, so it may call the journal. Payloads are upcast
    /// to ``Options/payloadVersion`` when it is set.
    public func entries(
      session: SessionID,
      after: Int64,
      through: Int64?,
      _ body: (JournalEntry) async throws -> Bool
    ) async throws {
      try await entries(
        session: session, after: after, through: through, pageSize: Self.entryPageSize,
        page: { cursor, last in
          let rows = try await rows(
            "reading the journal of session \(session)",
            sessionRows.entries(
              session, after: cursor, through: last, limit: Self.entryPageSize))
          guard !rows.isEmpty else { throw stored.unknownSession(session) }
          return rows
        },
        entry: { row in
          // The session's row alone, without an entry, when none is in the range.
          let (sequence, recordedAt, type, version, payload, delta, draws) = try row.decode(
            (Int64?, String?, String?, Int32?, String?, String?, String?).self)
          guard let sequence, let recordedAt, let type, let version, let payload, let delta
          else { return nil }
          return try JournalEntry(
            decoding: JournalRow(
              sequence: sequence, recordedAt: recordedAt, type: type, version: Int(version),
              payload: payload, delta: delta, draws: draws),
            session: session, upcasting: upcasting, stored: stored, path: location.description)
        }, body)
    }

    /// The snapshot with the greatest sequence at or below `atOrBelow`, or `nil`.
    public func snapshot(session: SessionID, atOrBelow sequence: Int64) async throws -> Snapshot? {
      let rows = try await rows(
        "reading a snapshot of session \(session)",
        sessionRows.nearestSnapshot(session, atOrBelow: sequence))
      guard let row = rows.first else { throw stored.unknownSession(session) }
      let (found, version, state, stacks, recordedAt) = try row.decode(
        (Int64?, Int32?, String?, String?, String?).self)
      guard let found, let version, let state, let stacks, let recordedAt else { return nil }
      let place = "the snapshot at sequence \(found) of session \(session)"
      let (upcastVersion, upcast) = try upcasting.upcast(
        Data(state.utf8), kind: .state, type: nil, version: Int(version), place: place,
        path: location.description)
      return Snapshot(
        session: session, sequence: found, version: upcastVersion, state: upcast,
        stacks: try stored.decode([StackRecord].self, stacks, "stacks of \(place)"),
        recordedAt: try stored.date(recordedAt, "time of \(place)"))
    }

    /// The sequence of the last entry recorded at or before `date` (the latest time, then the
    /// highest sequence); before the first entry kept, the oldest snapshot's sequence if `date`
    /// is at or after its time. One statement, so one consistent view.
    public func sequence(session: SessionID, atOrBefore date: Date) async throws -> Int64 {
      let time = try Timestamp.stored(date, "The time asked of session \(session)")
      return try await sequence(
        try rows(
          "finding the entry of session \(session) at \(time)",
          sessionRows.sequence(session, atOrBefore: time)),
        session: session, atOrBefore: time)
    }

    /// The sequence the rows of ``PostgresSessionRows/sequence(_:atOrBefore:)`` give.
    func sequence(_ rows: [PostgresRow], session: SessionID, atOrBefore time: String) throws
      -> Int64
    {
      guard let row = rows.first else { throw stored.unknownSession(session) }
      let (createdAt, found, oldest, oldestTime) = try row.decode(
        (String, Int64?, Int64?, String?).self)
      if let found { return found }
      guard createdAt <= time else {
        throw StorageError(
          code: .sequenceOutOfRange,
          message: "Session \(session) was created at \(createdAt), after \(time). Ask for a "
            + "time at or after its creation.")
      }
      guard let oldest, oldest > 0, let oldestTime else { return 0 }
      guard oldestTime <= time else {
        throw StorageError(
          code: .sequenceOutOfRange,
          message: "Session \(session) was compacted: its history now starts at sequence "
            + "\(oldest), recorded at \(oldestTime), after \(time). Ask for a time at or after "
            + "that.")
      }
      return oldest
    }

    /// The stacks at the session's head, read from the stack rows in one statement.
    public func headStacks(session: SessionID) async throws -> [StackRecord] {
      try await loadHeadStacks(session).stacks
    }

    /// The head and its stacks, read in one statement.
    func loadHeadStacks(_ session: SessionID) async throws -> (head: Int64, stacks: [StackRecord]) {
      let rows = try await rows(
        "reading the stacks of session \(session)", sessionRows.headStacks(session))
      guard !rows.isEmpty else { throw stored.unknownSession(session) }
      var head: Int64 = 0
      var records: [StackRecord] = []
      for row in rows {
        let (rowHead, path, nextID, isPresentation, id, caseName, state) = try row.decode(
          (Int64, String?, Int64?, Bool?, Int64?, String?, String?).self)
        head = rowHead
        guard let path, let nextID else { continue }
        if records.last?.path != path {
          records.append(
            StackRecord(
              path: path, nextID: StackElementID(generation: Int(nextID)), elements: [],
              isPresentation: isPresentation ?? false))
        }
        if let id, let state {
          records[records.count - 1].elements.append(
            StoredElement(id: StackElementID(generation: Int(id)), caseName: caseName, state: state))
        }
      }
      return (head, records.sorted { $0.path < $1.path })
    }

    /// The stacks at a sequence: the nearest snapshot's stacks with the deltas that follow it
    /// applied, read in one statement. Needs no app types and runs no upcaster.
    public func stacks(session: SessionID, at sequence: Int64) async throws -> [StackRecord] {
      try stacks(
        try await rows(
          "rebuilding the stacks of session \(session) at \(sequence)",
          sessionRows.stacks(session, at: sequence)),
        session: session, at: sequence)
    }

    /// The stacks the rows of `PostgresSessionRows.stacks(_:at:)` rebuild, fed to a
    /// `StackRebuild`.
    func stacks(_ rows: [PostgresRow], session: SessionID, at sequence: Int64) throws
      -> [StackRecord]
    {
      guard let first = rows.first else { throw stored.unknownSession(session) }
      let (_, head, start, snapshotStacks) = try first.decode(
        (Int32, Int64?, Int64?, String?).self)
      var rebuild = try StackRebuild(
        session: session, at: sequence, head: head ?? 0,
        snapshot: start.flatMap { start in snapshotStacks.map { (start, $0) } }, stored: stored)
      for row in rows.dropFirst() {
        let (_, _, entry, delta) = try row.decode((Int32, Int64?, Int64?, String?).self)
        try rebuild.apply(entry: entry ?? 0, delta: delta ?? "")
      }
      return try rebuild.stacks(at: sequence)
    }

    /// Writes a snapshot of the state at a recorded sequence, now; one already stored at that
    /// sequence is kept as it is. Throws `StorageError.Code.sequenceOutOfRange` beyond the
    /// head.
    public func writeSnapshot(
      session: SessionID,
      sequence: Int64,
      state: EncodedState,
      version: Int
    ) async throws {
      try requireWritable("writing a snapshot of session \(session)")
      let (stateText, stacksText) = try stored.snapshotTexts(state, session: session)
      let now = Timestamp.string(from: Date())
      let rows = try await committedRows(
        "writing a snapshot of session \(session)",
        snapshotRows.write(
          session, sequence: sequence, version: version, state: stateText, stacks: stacksText,
          recordedAt: now, head: sessionRows.head(session)))
      guard let row = rows.first else { throw stored.unknownSession(session) }
      let head = try row.decode(Int64.self)
      guard (0...head).contains(sequence) else {
        throw stored.outOfRange(session, sequence, head: head)
      }
    }
  }
#endif
