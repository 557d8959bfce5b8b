import Foundation
import GRDB

/// A row of the `sessions` table with what the journal tells of it: its head, entry count and
/// the times of its first and last entries (see ``SessionRows/records(_:id:)``).
struct SessionRecord: StoredRowRecord {
  var id: String
  var createdAt: String
  var metadata: String?
  /// SQLite's storage class of the metadata: `text`, `null`, or what a hand edit put there.
  var metadataType: String
  var headSequence: Int64
  var forkedFrom: String?
  var forkedAt: Int64?
  var entryCount: Int
  var firstActivity: String?
  var lastActivity: String?

  /// The session as the journal's API shows it, its times checked.
  func info(_ stored: StoredValues) throws -> SessionInfo {
    let id = SessionID(id)
    return SessionInfo(
      id: id,
      createdAt: try stored.date(createdAt, "creation time of session \(id)"),
      metadata: metadata.map { Data($0.utf8) },
      entryCount: entryCount,
      headSequence: headSequence,
      firstActivity: try firstActivity.map {
        try stored.date($0, "first entry time of session \(id)")
      },
      lastActivity: try lastActivity.map {
        try stored.date($0, "last entry time of session \(id)")
      },
      forkedFrom: forkedFrom.map(SessionID.init(rawValue:)),
      forkedAt: forkedAt
    )
  }

  /// The metadata, or an ``StorageError/Code/invalidData`` error when it is not JSON text a
  /// journal may store (see ``JSONText/storageProblem(_:)``), a BLOB included.
  func checkedMetadata(_ stored: StoredValues) throws -> String? {
    guard let problem = StoredSessionRow.metadataProblem(type: metadataType, metadata) else {
      return metadata
    }
    throw StorageError(
      code: .invalidData,
      message: "The metadata of session \(StorageError.printable(id)) \(problem). The row was "
        + "left as it is; run `\(stored.verifyCommand)`.",
      path: stored.path)
  }
}
