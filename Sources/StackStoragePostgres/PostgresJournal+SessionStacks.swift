#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackJournalCore

  extension PostgresJournal {
    /// The session's stacks at one moment, with its bounds and the time the moment was
    /// recorded, read on one connection in one `REPEATABLE READ, READ ONLY` transaction: every
    /// statement sees the snapshot the first one took, whatever a writer commits meanwhile. (The
    /// statements of the stacks and the time, shared with the one-statement reads, each select
    /// the session's head again, from that same snapshot.)
    ///
    /// What `moment` or `check` throws is rethrown as it is, after the transaction ends.
    public func sessionStacks(
      session: SessionID,
      at moment: @escaping @Sendable (SessionBounds) throws -> StacksMoment,
      check: @escaping @Sendable (SessionBounds, Int64) throws -> Void
    ) async throws -> SessionStacks {
      // What the caller refuses ends the transaction as a success: it only read.
      let outcome = try await readConsistently("reading the stacks of session \(session)") {
        connection -> Result<SessionStacks, any Error> in
        do {
          return .success(
            try await self.sessionStacks(
              on: connection, session: session, moment: moment, check: check))
        } catch let refusal as CallerRefusal {
          return .failure(refusal.error)
        }
      }
      return try outcome.get()
    }

    /// What `moment` or `check` threw, carried out of the transaction unchanged.
    private struct CallerRefusal: Error {
      var error: any Error
    }

    /// The statements of ``sessionStacks(session:at:check:)``, run on `connection` in its
    /// transaction.
    private func sessionStacks(
      on connection: PostgresConnection,
      session: SessionID,
      moment: @Sendable (SessionBounds) throws -> StacksMoment,
      check: @Sendable (SessionBounds, Int64) throws -> Void
    ) async throws -> SessionStacks {
      let logger = self.logger
      func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await connection.query(query, logger: logger).collect()
      }
      guard let info = try decodeSessions(try await rows(sessionRows.list(id: session))).first
      else {
        throw stored.unknownSession(session)
      }
      let limits = try await rows(sessionRows.limits(session))
      let (base, last) = try limits.first?.decode((Int64?, Int64?).self) ?? (nil, nil)
      let bounds = SessionBounds(session: info, base: base ?? 0, lastEntrySequence: last)
      let asked: StacksMoment
      do { asked = try moment(bounds) } catch { throw CallerRefusal(error: error) }
      let sequence: Int64
      switch asked {
      case .sequence(let given):
        sequence = given
      case .atOrBefore(let date):
        let time: String
        do {
          time = try Timestamp.stored(date, "The time asked of session \(session)")
        } catch { throw CallerRefusal(error: error) }
        sequence = try self.sequence(
          try await rows(sessionRows.sequence(session, atOrBefore: time)),
          session: session, atOrBefore: time)
      }
      do { try check(bounds, sequence) } catch { throw CallerRefusal(error: error) }
      let stacks = try self.stacks(
        try await rows(sessionRows.stacks(session, at: sequence)), session: session,
        at: sequence)
      let recordedAt = try self.recordedAt(
        try await rows(sessionRows.recordedAt(session, sequence: sequence)),
        session: session, sequence: sequence)
      return SessionStacks(
        bounds: bounds, sequence: sequence, recordedAt: recordedAt, stacks: stacks)
    }
  }
#endif
