import Foundation
import GRDB

extension StoredSessionRow {
  /// The row of `session` read through an SQLite transaction, or `nil` when there is none.
  static func read(_ db: Database, _ session: SessionID) throws -> StoredSessionRow? {
    try Row.fetchOne(
      db,
      sql: """
        SELECT CAST(created_at AS TEXT), typeof(created_at), CAST(metadata AS TEXT),
          typeof(metadata), typeof(head_sequence), CAST(forked_from AS TEXT),
          typeof(forked_from), CAST(forked_at AS TEXT), typeof(forked_at)
        FROM sessions WHERE id = ?
        """,
      arguments: [session.rawValue]
    ).map { row in
      func text(_ index: Int) -> String? { String.fromDatabaseValue(row[index]) }
      return StoredSessionRow(
        createdAt: text(0), createdAtType: text(1) ?? "", metadata: text(2),
        metadataType: text(3) ?? "", headSequenceType: text(4) ?? "", forkedFrom: text(5),
        forkedFromType: text(6) ?? "", forkedAt: text(7), forkedAtType: text(8) ?? "")
    }
  }
}
