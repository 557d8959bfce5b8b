import GRDB

/// A row read into a record by column names: the snake_case columns of the schema
/// (`recorded_at`) fill the camelCase properties (`recordedAt`), so a record lists its columns
/// once, as properties, and no query depends on the order of its SELECT list.
protocol StoredRowRecord: Decodable, FetchableRecord {}

extension StoredRowRecord {
  static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy {
    .convertFromSnakeCase
  }
}
