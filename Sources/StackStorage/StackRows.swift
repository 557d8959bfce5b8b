import GRDB
import StackNavigation

/// The SQL of the `stacks` and `stack_elements` tables: the stacks at the head of a session.
enum StackRows {
  /// The stacks of a session, sorted by path.
  static func load(_ db: Database, session: String) throws -> [StackRecord] {
    var records: [String: StackRecord] = [:]
    let stacks = try db.cachedStatement(sql: "SELECT path, next_id FROM stacks WHERE session = ?")
    let stackRows = try StackRowRecord.fetchCursor(stacks, arguments: [session])
    while let row = try stackRows.next() {
      records[row.path] = StackRecord(
        path: row.path, nextID: StackElementID(generation: row.nextId), elements: [])
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

  /// Inserts the rows of new stacks.
  static func insert(_ stacks: [StackRecord], _ db: Database, session: String) throws {
    for stack in stacks {
      try insertStack(stack.path, nextID: stack.nextID, db, session: session)
      for (position, element) in stack.elements.enumerated() {
        try insertElement(element, position: position, path: stack.path, db, session: session)
      }
    }
  }

  /// Updates the rows of `before` by a delta computed from them.
  static func apply(
    _ delta: StackDelta,
    before: [StackRecord],
    _ db: Database,
    session: String
  ) throws {
    var current = Dictionary(
      before.map { ($0.path, (ids: $0.ids, nextID: $0.nextID)) },
      uniquingKeysWith: { first, _ in first })
    for change in delta.changes {
      if change.removed {
        try deleteStack(change.path, db, session: session)
        current[change.path] = nil
        continue
      }
      guard let stack = current[change.path] else {
        let byID = Dictionary(
          change.pushed.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        try insertStack(change.path, nextID: change.nextID, db, session: session)
        for (position, id) in change.ids.enumerated() {
          guard let element = byID[id] else { continue }
          try insertElement(element, position: position, path: change.path, db, session: session)
        }
        current[change.path] = (change.ids, change.nextID)
        continue
      }
      for id in change.popped {
        try db.cachedStatement(
          sql: "DELETE FROM stack_elements WHERE session = ? AND path = ? AND id = ?"
        ).execute(arguments: [session, change.path, id.generation])
      }
      let newPositions = Dictionary(
        change.ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
      for element in change.changed {
        try db.cachedStatement(
          sql: "UPDATE stack_elements SET case_name = ?, state = ?, position = ? "
            + "WHERE session = ? AND path = ? AND id = ?"
        ).execute(arguments: [
          element.caseName, element.state, newPositions[element.id] ?? 0, session, change.path,
          element.id.generation,
        ])
      }
      for element in change.pushed {
        try insertElement(
          element, position: newPositions[element.id] ?? 0, path: change.path, db,
          session: session)
      }
      let changedIDs = Set(change.changed.map(\.id))
      for (oldPosition, id) in stack.ids.enumerated() where !changedIDs.contains(id) {
        guard let newPosition = newPositions[id], newPosition != oldPosition else { continue }
        try db.cachedStatement(
          sql: "UPDATE stack_elements SET position = ? WHERE session = ? AND path = ? AND id = ?"
        ).execute(arguments: [newPosition, session, change.path, id.generation])
      }
      if change.nextID != stack.nextID {
        try db.cachedStatement(sql: "UPDATE stacks SET next_id = ? WHERE session = ? AND path = ?")
          .execute(arguments: [change.nextID.generation, session, change.path])
      }
      current[change.path] = (change.ids, change.nextID)
    }
  }

  /// Updates the rows by a delta computed elsewhere, checking that it fits them: each popped
  /// and changed element must be a row, each pushed one must not be and must not be below the
  /// stack's next ID, and the next ID must not go back. Only the rows the delta names are
  /// touched, plus, for the stacks in `reordered`, the positions of the elements that stayed.
  ///
  /// Throws ``StorageError/Code/inconsistentDelta`` when the delta does not fit; the caller's
  /// transaction must then be rolled back.
  static func apply(
    _ delta: StackDelta,
    reordered: Set<String>,
    _ db: Database,
    session: String
  ) throws {
    for change in delta.changes {
      if change.removed {
        try db.cachedStatement(sql: "DELETE FROM stack_elements WHERE session = ? AND path = ?")
          .execute(arguments: [session, change.path])
        guard db.changesCount == change.popped.count else {
          throw inconsistent(change, "removes \(change.popped.count) elements, not those held")
        }
        try db.cachedStatement(sql: "DELETE FROM stacks WHERE session = ? AND path = ?")
          .execute(arguments: [session, change.path])
        guard db.changesCount == 1 else {
          throw inconsistent(change, "removes a stack that does not exist")
        }
        continue
      }
      let nextIDs = try db.cachedStatement(
        sql: "SELECT next_id FROM stacks WHERE session = ? AND path = ?")
      guard let oldNextID = try Int64.fetchOne(nextIDs, arguments: [session, change.path]) else {
        guard change.popped.isEmpty, change.changed.isEmpty else {
          throw inconsistent(change, "pops or changes elements of a stack that does not exist")
        }
        try insertStack(change.path, nextID: change.nextID, db, session: session)
        let byID = Dictionary(
          change.pushed.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        guard byID.count == change.ids.count else {
          throw inconsistent(change, "lists IDs after the change that it does not push")
        }
        for (position, id) in change.ids.enumerated() {
          guard let element = byID[id] else {
            throw inconsistent(change, "lists \(id) after the change, which it does not push")
          }
          try insertElement(element, position: position, path: change.path, db, session: session)
        }
        continue
      }
      guard change.nextID.generation >= oldNextID else {
        throw inconsistent(
          change, "moves the next ID back from #\(oldNextID) to \(change.nextID)")
      }
      for id in change.popped {
        try db.cachedStatement(
          sql: "DELETE FROM stack_elements WHERE session = ? AND path = ? AND id = ?"
        ).execute(arguments: [session, change.path, id.generation])
        guard db.changesCount == 1 else {
          throw inconsistent(change, "pops \(id), which the stack does not hold")
        }
      }
      let positions = PositionLookup(change.ids)
      for element in change.changed {
        try db.cachedStatement(
          sql: "UPDATE stack_elements SET case_name = ?, state = ?, position = ? "
            + "WHERE session = ? AND path = ? AND id = ?"
        ).execute(arguments: [
          element.caseName, element.state, try positions.position(of: element.id, in: change),
          session, change.path, element.id.generation,
        ])
        guard db.changesCount == 1 else {
          throw inconsistent(change, "changes \(element.id), which the stack does not hold")
        }
      }
      // A push of an ID popped earlier (below the next ID) is accepted, as an explicit push is
      // in the model; a push of an ID the stack holds is not.
      for element in change.pushed {
        let position = try positions.position(of: element.id, in: change)
        do {
          try insertElement(element, position: position, path: change.path, db, session: session)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
          throw inconsistent(change, "pushes \(element.id), which the stack already holds")
        }
      }
      if reordered.contains(change.path) {
        let rewritten = Set(change.changed.map(\.id)).union(change.pushed.map(\.id))
        for (position, id) in change.ids.enumerated() where !rewritten.contains(id) {
          try db.cachedStatement(
            sql: "UPDATE stack_elements SET position = ? "
              + "WHERE session = ? AND path = ? AND id = ?"
          ).execute(arguments: [position, session, change.path, id.generation])
          guard db.changesCount == 1 else {
            throw inconsistent(change, "lists \(id) after the change, which the stack does not hold")
          }
        }
      }
      if change.nextID.generation != oldNextID {
        try db.cachedStatement(sql: "UPDATE stacks SET next_id = ? WHERE session = ? AND path = ?")
          .execute(arguments: [change.nextID.generation, session, change.path])
      }
    }
  }

  /// The position of an ID in the IDs after a change: found from the top, where pushes and
  /// changes usually are.
  private struct PositionLookup {
    let ids: [StackElementID]
    init(_ ids: [StackElementID]) { self.ids = ids }

    func position(of id: StackElementID, in change: StackChange) throws -> Int {
      guard let position = ids.lastIndex(of: id) else {
        throw StackRows.inconsistent(change, "does not list \(id) among the IDs after it")
      }
      return position
    }
  }

  static func inconsistent(_ change: StackChange, _ problem: String) -> StorageError {
    StorageError(
      code: .inconsistentDelta,
      message: "The change to the stack `\(change.path)` \(problem). The delta does not match "
        + "the session's stack rows; nothing was written. Reopen the session to record from "
        + "its head."
    )
  }

  /// Deletes every stack row of a session.
  static func deleteAll(_ db: Database, session: String) throws {
    try db.execute(sql: "DELETE FROM stack_elements WHERE session = ?", arguments: [session])
    try db.execute(sql: "DELETE FROM stacks WHERE session = ?", arguments: [session])
  }

  private static func insertStack(
    _ path: String,
    nextID: StackElementID,
    _ db: Database,
    session: String
  ) throws {
    try db.cachedStatement(sql: "INSERT INTO stacks (session, path, next_id) VALUES (?, ?, ?)")
      .execute(arguments: [session, path, nextID.generation])
  }

  private static func insertElement(
    _ element: StoredElement,
    position: Int,
    path: String,
    _ db: Database,
    session: String
  ) throws {
    try db.cachedStatement(
      sql: "INSERT INTO stack_elements (session, path, id, position, case_name, state) "
        + "VALUES (?, ?, ?, ?, ?, ?)"
    ).execute(arguments: [
      session, path, element.id.generation, position, element.caseName, element.state,
    ])
  }

  private static func deleteStack(_ path: String, _ db: Database, session: String) throws {
    try db.cachedStatement(sql: "DELETE FROM stack_elements WHERE session = ? AND path = ?")
      .execute(arguments: [session, path])
    try db.cachedStatement(sql: "DELETE FROM stacks WHERE session = ? AND path = ?")
      .execute(arguments: [session, path])
  }
}
