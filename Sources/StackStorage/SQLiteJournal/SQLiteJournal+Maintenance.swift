import GRDB

extension SQLiteJournal {
  /// The schema version of the file at `path`, the version this build writes, and the names of
  /// the migrations opening it would apply, for `stackjournal migrate --dry-run`.
  ///
  /// Read-only: the file is checked as ``init(path:options:)`` checks it, and never changed.
  /// Throws `StorageError.Code.fileNotFound` for a missing file, and the errors of opening for
  /// a file that cannot be migrated.
  public static func pendingMigrations(at path: String) throws -> (
    current: Int, target: Int, pending: [String]
  ) {
    guard DatabaseFile.exists(path) else {
      throw StorageError(
        code: .fileNotFound,
        message: "There is no journal at \(path); check the path.",
        path: path
      )
    }
    try DatabaseFile.checkHeader(path)
    let state = try retryingTransientFailures(path: path) {
      let plan = try ReadOnlyAccess.plan(for: path, participating: false)
      return try DatabaseFile.readSchemaState(path, location: plan.location)
    }
    let pending = try state.pending(Migration.all, path: path)
    try state.checkShape(path: path, forWriting: true)
    return (state.userVersion, Migration.latestVersion, pending.map(\.name))
  }
}
