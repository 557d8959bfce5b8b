import GRDB

/// A row of the `stacks` table: one stack at the head of a session.
struct StackRowRecord: StoredRowRecord {
  var path: String
  var nextId: Int
}

/// A row of the `stack_elements` table: one element of a stack at the head of a session.
struct StackElementRowRecord: StoredRowRecord {
  var path: String
  var id: Int
  var caseName: String?
  var state: String
}
