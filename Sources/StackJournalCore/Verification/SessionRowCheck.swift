import Foundation

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

  package init(
    createdAt: String?, createdAtType: String, metadata: String?, metadataType: String,
    headSequenceType: String, forkedFrom: String?, forkedFromType: String, forkedAt: String?,
    forkedAtType: String
  ) {
    self.createdAt = createdAt
    self.createdAtType = createdAtType
    self.metadata = metadata
    self.metadataType = metadataType
    self.headSequenceType = headSequenceType
    self.forkedFrom = forkedFrom
    self.forkedFromType = forkedFromType
    self.forkedAt = forkedAt
    self.forkedAtType = forkedAtType
  }

  /// Why stored metadata of a storage class is unfit, or `nil` when it is JSON text or NULL.
  package static func metadataProblem(type: String, _ metadata: String?) -> String? {
    switch type {
    case "null": return nil
    case "text":
      return metadata.flatMap { JSONText.storageProblem(Data($0.utf8)) }
    default: return "is stored as \(type == "blob" ? "a BLOB" : type), not as JSON text"
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
    if let reason = StoredSessionRow.metadataProblem(type: row.metadataType, row.metadata) {
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
