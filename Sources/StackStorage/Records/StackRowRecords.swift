import GRDB

/// A row of the `stacks` table: one stack at the head of a session.
struct StackRowRecord: Decodable, FetchableRecord {
  var path: String
  var nextID: Int

  enum CodingKeys: String, CodingKey {
    case path
    case nextID = "next_id"
  }
}

/// A row of the `stack_elements` table: one element of a stack at the head of a session.
struct StackElementRowRecord: Decodable, FetchableRecord {
  var path: String
  var id: Int
  var caseName: String?
  var state: String

  enum CodingKeys: String, CodingKey {
    case path
    case id
    case caseName = "case_name"
    case state
  }
}
