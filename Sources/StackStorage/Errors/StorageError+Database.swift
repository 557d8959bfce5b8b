import GRDB

extension StorageError {
  /// Wraps an SQLite error with a code and a message that say where it happened.
  init(databaseError error: DatabaseError, path: String?, doing activity: String) {
    let place = path ?? "the in-memory database"
    let code: Code
    let advice: String
    switch error.resultCode {
    case .SQLITE_NOTADB:
      code = .notADatabase
      advice = "The file is not an SQLite database; it was left unchanged."
    case .SQLITE_CORRUPT:
      code = .corrupt
      advice = "The database is damaged; restore it from a backup (`stackjournal verify --db "
        + "\(place)` lists what can still be read)."
    case .SQLITE_READONLY:
      code = .readOnly
      advice = "The file or its directory is not writable; check permissions."
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      code = .busy
      advice = "Another connection holds the database locked; retry later."
    case .SQLITE_FULL:
      code = .diskFull
      advice = "The disk is full: nothing of this write was kept and what was written before is "
        + "intact. Free some space, then retry."
    case .SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_PERM:
      code = .io
      advice = "Check that the directory exists, is writable and that the disk has space."
    default:
      code = .database
      advice = "See the SQLite error."
    }
    self.init(
      code: code,
      message: "SQLite failed while \(activity) at \(place): \(error.message ?? "\(error)"). "
        + advice,
      path: path,
      underlying: error
    )
  }
}
