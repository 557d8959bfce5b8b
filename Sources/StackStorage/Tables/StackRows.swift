import GRDB
import StackNavigation

/// The SQL of the `stacks` and `stack_elements` tables: the stacks at the head of a session, and
/// its presented destinations (rows of `stacks` marked `presentation`, schema 5).
enum StackRows {
  /// The stacks of a session, sorted by path.
  static func load(_ db: Database, session: String) throws -> [StackRecord] {
    var records: [String: StackRecord] = [:]
    let stacks = try db.cachedStatement(
      sql: "SELECT path, next_id, presentation FROM stacks WHERE session = ?")
    let stackRows = try StackRowRecord.fetchCursor(stacks, arguments: [session])
    while let row = try stackRows.next() {
      records[row.path] = StackRecord(
        path: row.path, nextID: StackElementID(generation: row.nextId), elements: [],
        isPresentation: row.presentation)
    }
    let elements = try db.cachedStatement(
      sql: "SELECT path, id, case_name, state FROM stack_elements WHERE session = ? "
        + "ORDER BY path, position"
    )
    let elementRows = try StackElementRowRecord.fetchCursor(elements, arguments: [session])
    while let row = try elementRows.next() {
      records[row.path]?.elements.append(
        StoredElement(
          id: StackElementID(generation: row.id), caseName: row.caseName, state: row.state)
      )
    }
    return records.values.sorted { $0.path < $1.path }
  }

  /// Inserts the rows of new stacks; an append passes its journal's `statements`.
  static func insert(
    _ stacks: [StackRecord], _ db: Database, session: String,
    statements: AppendStatements? = nil
  ) throws {
    for stack in stacks {
      try insertStack(
        stack.path, nextID: stack.nextID, isPresentation: stack.isPresentation, db,
        session: session)
      for (position, element) in stack.elements.enumerated() {
        try insertElement(
          element, position: position, path: stack.path, db, session: session,
          statements: statements)
      }
    }
  }

  /// Writes a delta into the rows, checking each change against the stack it changes with
  /// ``StackChange/fit(_:)`` (the delta rules) before writing it: only the rows the delta names
  /// are touched, plus the positions of the elements that stayed and moved. `shapes` are the
  /// shapes of every stack of the session the rows hold (``shapes(_:session:)``, or a copy kept
  /// since the last append: ``HeadShapes``); on return they are the shapes after the delta.
  ///
  /// Throws ``StorageError/Code/inconsistentDelta`` when the delta does not fit; the caller's
  /// transaction must then be rolled back, and `shapes` are then not the rows'. The statements
  /// are those the journal keeps (``AppendStatements``).
  static func write(
    _ delta: StackDelta,
    over shapes: inout [String: StackShape],
    _ db: Database,
    session: String,
    statements: AppendStatements
  ) throws {
    for change in delta.changes {
      let old = shapes[change.path]
      let moved: [(id: StackElementID, position: Int)]
      do {
        moved = try change.fit(old)
      } catch var error as StorageError {
        error.message +=
          " The session's stack rows were not changed; reopen the session to "
          + "record from its head."
        throw error
      }
      shapes[change.path] =
        change.removed
        ? nil
        : StackShape(nextID: change.nextID, ids: change.ids, isPresentation: change.isPresentation)
      guard let old else {
        let byID = Dictionary(
          change.pushed.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let stack = StackRecord(
          path: change.path, nextID: change.nextID, elements: change.ids.map { byID[$0]! },
          isPresentation: change.isPresentation)
        try insert([stack], db, session: session, statements: statements)
        continue
      }
      if change.removed {
        try deleteStack(change.path, db, session: session)
        continue
      }
      for id in change.popped {
        try db.run(
          "DELETE FROM stack_elements WHERE session = ? AND path = ? AND id = ?",
          .deleteElement, in: statements, .text(session), .text(change.path),
          .integer(Int64(id.generation)))
      }
      let positions = PositionLookup(change.ids)
      for element in change.changed {
        try db.run(
          "UPDATE stack_elements SET case_name = ?, state = ?, position = ? "
            + "WHERE session = ? AND path = ? AND id = ?", .updateElement, in: statements,
          .textOrNull(element.caseName), .text(element.state),
          .integer(Int64(positions.position(of: element.id))), .text(session),
          .text(change.path), .integer(Int64(element.id.generation)))
      }
      for element in change.pushed {
        try insertElement(
          element, position: positions.position(of: element.id), path: change.path, db,
          session: session, statements: statements)
      }
      if !moved.isEmpty {
        let rewritten = Set(change.changed.map(\.id)).union(change.pushed.map(\.id))
        for (id, position) in moved where !rewritten.contains(id) {
          try db.run(
            "UPDATE stack_elements SET position = ? WHERE session = ? AND path = ? AND id = ?",
            .moveElement, in: statements, .integer(Int64(position)), .text(session),
            .text(change.path), .integer(Int64(id.generation)))
        }
      }
      if change.nextID != old.nextID {
        try db.run(
          "UPDATE stacks SET next_id = ? WHERE session = ? AND path = ?", .updateNextID,
          in: statements, .integer(Int64(change.nextID.generation)), .text(session),
          .text(change.path))
      }
    }
  }

  /// The next ID and the IDs, bottom first, of every stack of a session, by path.
  static func shapes(_ db: Database, session: String) throws -> [String: StackShape] {
    var shapes: [String: StackShape] = [:]
    let stacks = try db.cachedStatement(
      sql: "SELECT path, next_id, presentation FROM stacks WHERE session = ?")
    let stackRows = try StackRowRecord.fetchCursor(stacks, arguments: [session])
    while let row = try stackRows.next() {
      shapes[row.path] = StackShape(
        nextID: StackElementID(generation: row.nextId), ids: [], isPresentation: row.presentation)
    }
    // Ordered by position, so rows whose positions break 0 through count − 1 (every write
    // leaves them so) are still read in order.
    let elements = try Row.fetchCursor(
      db.cachedStatement(
        sql: "SELECT path, id FROM stack_elements WHERE session = ? ORDER BY path, position, id"),
      arguments: [session])
    while let row = try elements.next() {
      let path: String = row[0]
      shapes[path]?.ids.append(StackElementID(generation: row[1]))
    }
    return shapes
  }

  /// The position of an ID in the IDs after a change (which lists it: ``StackChange/fit(_:)``
  /// checked), found from the top, where pushes and changes usually are.
  private struct PositionLookup {
    let ids: [StackElementID]
    init(_ ids: [StackElementID]) { self.ids = ids }

    func position(of id: StackElementID) -> Int {
      ids.lastIndex(of: id)!
    }
  }

  /// Deletes every stack row of a session.
  static func deleteAll(_ db: Database, session: String) throws {
    try db.execute(sql: "DELETE FROM stack_elements WHERE session = ?", arguments: [session])
    try db.execute(sql: "DELETE FROM stacks WHERE session = ?", arguments: [session])
  }

  private static func insertStack(
    _ path: String,
    nextID: StackElementID,
    isPresentation: Bool,
    _ db: Database,
    session: String
  ) throws {
    try db.run(
      "INSERT INTO stacks (session, path, next_id, presentation) VALUES (?, ?, ?, ?)",
      .text(session), .text(path), .integer(Int64(nextID.generation)),
      .integer(isPresentation ? 1 : 0))
  }

  private static func insertElement(
    _ element: StoredElement,
    position: Int,
    path: String,
    _ db: Database,
    session: String,
    statements: AppendStatements?
  ) throws {
    try db.run(
      "INSERT INTO stack_elements (session, path, id, position, case_name, state) "
        + "VALUES (?, ?, ?, ?, ?, ?)", .insertElement, in: statements,
      .text(session), .text(path), .integer(Int64(element.id.generation)),
      .integer(Int64(position)), .textOrNull(element.caseName), .text(element.state))
  }

  private static func deleteStack(_ path: String, _ db: Database, session: String) throws {
    try db.run(
      "DELETE FROM stack_elements WHERE session = ? AND path = ?", .text(session), .text(path))
    try db.run("DELETE FROM stacks WHERE session = ? AND path = ?", .text(session), .text(path))
  }

  /// The stored bytes and element count of every session that has stack elements.
  static func sizes(_ db: Database) throws -> RecordCursor<SessionBytes> {
    try SessionBytes.fetchCursor(
      db,
      sql: "SELECT session, sum(length(CAST(state AS BLOB)) + length(CAST(path AS BLOB)) + 24) "
        + "AS bytes, count(*) AS rows FROM stack_elements GROUP BY session")
  }
}

// MARK: - Records

extension StackRows {
  /// A row of the `stacks` table: one stack at the head of a session.
  struct StackRowRecord: StoredRowRecord {
    var path: String
    var nextId: Int
    /// Whether the row is a presented destination (schema 5) rather than a stack.
    var presentation: Bool
  }

  /// A row of the `stack_elements` table: one element of a stack at the head of a session.
  struct StackElementRowRecord: StoredRowRecord {
    var path: String
    var id: Int
    var caseName: String?
    var state: String
  }
}
