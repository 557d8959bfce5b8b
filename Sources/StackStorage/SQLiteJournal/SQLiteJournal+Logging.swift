import Logging

extension SQLiteJournal {
  /// The logger the options named.
  var logger: Logger { options.logger }

  /// The journal as log records name it: its file, or `memory`.
  var loggedPlace: Logger.MetadataValue { "\(path ?? "memory")" }

  func logOpened() {
    logger.info(
      "opened the journal",
      metadata: [
        "journal": loggedPlace, "schema.version": "\(schemaVersion)",
        "durability": "\(options.durability)", "read_only": "\(options.readOnly)",
      ])
  }

  func logClosed() {
    logger.info("closed the journal", metadata: ["journal": loggedPlace])
  }

  /// An append that found the session's head elsewhere than it expected: another writer
  /// appended first (or the caller's store is behind).
  func logConflict(_ session: SessionID, head: Int64, expected: Int64) {
    logger.info(
      "sequence conflict: another writer appended first",
      metadata: [
        "journal": loggedPlace, "session": "\(session.escaped)", "sequence": "\(head)",
        "expected_sequence": "\(expected)",
      ])
  }
}
