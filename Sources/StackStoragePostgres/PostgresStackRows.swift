#if PostgreSQL
  import PostgresNIO
  import StackJournalCore

  /// The SQL of the `stacks` and `stack_elements` tables: the stacks at the head of a session,
  /// read, measured, imported and deleted. Appends and new sessions change them through the
  /// server's functions (`append_entry(…)`, `create_session(…)`).
  ///
  /// A part that takes `session` is a fragment naming the session: a bound identifier
  /// (`"\(id.rawValue)"`) or a column of the statement that includes it (`"s.id"`).
  struct PostgresStackRows: Sendable {
    let tables: PostgresTables

    /// The stacks of `session` with their elements, one row per element and one for a stack
    /// without any: path, next ID, whether it is a presentation, element ID, case name, state and
    /// position (the element's columns `NULL` for an empty stack).
    func elements(of session: SQLFragment) -> SQLFragment {
      """
      SELECT st.path, st.next_id, st.presentation, e.id, e.case_name, e.state, e.position
        FROM \(unescaped: tables.stacks) st
        LEFT JOIN \(unescaped: tables.stackElements) e
          ON e.session = st.session AND e.path = st.path
        WHERE st.session = \(session)
      """
    }

    /// The stored bytes of the stack elements of `session`.
    func bytes(of session: SQLFragment) -> SQLFragment {
      """
      coalesce((SELECT sum(octet_length(state) + octet_length(path) + 24)
          FROM \(unescaped: tables.stackElements) WHERE session = \(session)), 0)::bigint
      """
    }

    /// Inserts the row of a stack of an imported session.
    func insert(_ session: SessionID, _ stack: StackRecord) -> PostgresQuery {
      """
      INSERT INTO \(unescaped: tables.stacks) (session, path, next_id, presentation)
      VALUES (
        \(session.rawValue), \(stack.path), \(Int64(stack.nextID.generation)),
        \(stack.isPresentation))
      """
    }

    /// Inserts the elements of a stack of an imported session, at their positions.
    func insertElements(_ session: SessionID, _ stack: StackRecord) -> PostgresQuery {
      let elements = stack.elements
      return """
        INSERT INTO \(unescaped: tables.stackElements)
          (session, path, id, position, case_name, state)
        SELECT \(session.rawValue), \(stack.path), u.i, u.p, CASE WHEN u.h THEN u.n END, u.st
        FROM unnest(
          \(elements.map { Int64($0.id.generation) })::bigint[],
          \(elements.indices.map { Int32($0) })::integer[],
          \(elements.map { $0.caseName ?? "" })::text[],
          \(elements.map { $0.caseName != nil })::boolean[],
          \(elements.map(\.state))::text[]) AS u(i, p, n, h, st)
        """
    }

    /// Deletes the stack rows of the sessions `match` selects (`= $n` or `= ANY($n)`): the
    /// elements, then the stacks they refer to.
    func delete(sessions match: SQLFragment) -> [PostgresQuery] {
      [
        "DELETE FROM \(unescaped: tables.stackElements) WHERE session \(match)",
        "DELETE FROM \(unescaped: tables.stacks) WHERE session \(match)",
      ]
    }
  }
#endif
