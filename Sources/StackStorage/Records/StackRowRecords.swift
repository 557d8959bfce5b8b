import GRDB

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
