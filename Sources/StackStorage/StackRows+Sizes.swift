import GRDB

extension StackRows {
  /// The stored bytes and element count of every session that has stack elements.
  static func sizes(_ db: Database) throws -> RecordCursor<SessionBytes> {
    try SessionBytes.fetchCursor(
      db,
      sql: "SELECT session, sum(length(CAST(state AS BLOB)) + length(CAST(path AS BLOB)) + 24) "
        + "AS bytes, count(*) AS rows FROM stack_elements GROUP BY session")
  }
}
