import Foundation
import GRDB

/// A session's own row exactly as stored: each field as text and its SQLite storage class.
package struct StoredSessionRow: Sendable {
  package var createdAt: String?
  package var createdAtType: String
  package var metadata: String?
  package var metadataType: String
  package var headSequenceType: String
  package var forkedFrom: String?
  package var forkedFromType: String
  package var forkedAt: String?
  package var forkedAtType: String

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

extension SessionCheck {
  /// Checks every field of the session's row that a command relies on: a creation time that
  /// is a time (exports and listings read it), metadata that is JSON text a journal may store
  /// (exports and `--json` output copy it as it is), a head that is an integer, and a fork
  /// origin that names a session at a sequence.
  package mutating func checkSessionRow(_ row: StoredSessionRow) {
    if row.createdAtType != "text" || row.createdAt.flatMap(Timestamp.date(from:)) == nil {
      problem(
        nil, .invalidData,
        "the session's creation time `\(StorageError.printable(row.createdAt ?? "NULL"))` "
          + "(\(row.createdAtType)) is not a time in the form 2025-01-31T09:30:00.000Z")
    }
    if let reason = SessionRecord.metadataProblem(type: row.metadataType, row.metadata) {
      problem(nil, .invalidData, "the session's metadata \(reason)")
    }
    if row.headSequenceType != "integer" {
      problem(
        nil, .invalidData, "the session's head sequence is stored as \(row.headSequenceType)")
    }
    if !["null", "text"].contains(row.forkedFromType) {
      problem(nil, .invalidData, "the session's fork origin is stored as \(row.forkedFromType)")
    }
    if !["null", "integer"].contains(row.forkedAtType) {
      problem(
        nil, .invalidData, "the session's fork sequence is stored as \(row.forkedAtType)")
    }
  }
}
