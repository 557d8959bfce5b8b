import Foundation

/// How a journal checks what it stores and reads back — JSON text, times — and words the errors
/// every backend shares, naming the journal the same way in each.
///
/// A backend keeps one, built from where it lives: the SQLite file's path, the PostgreSQL
/// server's location.
package struct StoredValues: Sendable {
  /// The journal as messages name it: a file's path, the in-memory journal, a server.
  package let place: String
  /// The file's path, which errors carry; `nil` for a journal that is not one file.
  package let path: String?
  /// The command that checks this journal, which messages about unreadable rows suggest.
  package let verifyCommand: String

  /// The values of an SQLite journal: its file, or the in-memory journal when `path` is `nil`.
  package static func file(_ path: String?) -> StoredValues {
    StoredValues(
      place: path ?? "the in-memory journal", path: path,
      verifyCommand: "stackjournal verify --db \(path ?? "PATH")")
  }

  /// The values of a journal on a server that `description` names, safe to show.
  package static func server(_ description: String) -> StoredValues {
    StoredValues(place: description, path: nil, verifyCommand: "stackjournal verify")
  }

  package func unknownSession(_ session: SessionID) -> StorageError {
    StorageError(
      code: .unknownSession,
      message: "There is no session \(session) in \(place). List the sessions to find its "
        + "identifier, or create it first.",
      path: path
    )
  }

  package func outOfRange(_ session: SessionID, _ sequence: Int64, head: Int64) -> StorageError {
    StorageError(
      code: .sequenceOutOfRange,
      message: "Session \(session) has no sequence \(sequence): its journal runs from 0 to "
        + "\(head).",
      path: path
    )
  }

  package func sequenceConflict(_ session: SessionID, head: Int64, expected: Int64)
    -> StorageError
  {
    StorageError(
      code: .sequenceConflict,
      message: "Session \(session) is at sequence \(head), but this append expected "
        + "\(expected): another writer appended first. Nothing was written; reload the "
        + "session's head and retry.",
      path: path
    )
  }

  /// The UTF-8 text of JSON bytes, or an ``StorageError/Code/invalidData`` error when
  /// ``JSONText/storageProblem(_:)`` finds them unfit: not UTF-8, holding a NUL character,
  /// nested too deep, or not one JSON value.
  ///
  /// Stored JSON is spliced as it is into exports and the CLI's JSON output, so text that is not
  /// JSON is refused before it is written.
  package func text(_ json: Data, _ what: @autoclosure () -> String) throws -> String {
    if let problem = JSONText.storageProblem(json) {
      var shown = ""
      if problem == "is not JSON", let text = JSONText.text(json) {
        let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
        shown = ": `\(StorageError.printable(cut))`"
      }
      throw StorageError(
        code: .invalidData,
        message: "The \(what()) \(problem)\(shown). A journal stores JSON as UTF-8 text, which "
          + "exports and `--json` output copy as it is; encode it with JSONEncoder. Nothing was "
          + "written.",
        path: path
      )
    }
    return String(decoding: json, as: UTF8.self)
  }

  /// The date of a stored time, or an ``StorageError/Code/invalidData`` error.
  package func date(_ text: String, _ what: @autoclosure () -> String) throws -> Date {
    guard let date = Timestamp.date(from: text) else {
      throw StorageError(
        code: .invalidData,
        message: "The \(what()) is \(JSONText.literal(text)), not a time in the form "
          + "2025-01-31T09:30:00.000Z. The row was left as it is.",
        path: path
      )
    }
    return date
  }

  /// Decodes a stored JSON column, or throws an ``StorageError/Code/invalidData`` error.
  package func decode<T: Decodable>(
    _ type: T.Type, _ text: String, _ what: @autoclosure () -> String
  ) throws -> T {
    do {
      return try JSONDecoder().decode(type, from: Data(text.utf8))
    } catch {
      throw StorageError(
        code: .invalidData,
        message: "The \(what()) cannot be read. The row was left as it is; run "
          + "`\(verifyCommand)`.",
        path: path,
        underlying: error
      )
    }
  }

  /// A new session's initial stacks (sorted, checked to form valid stacks) and its stored
  /// texts: the initial state, the stacks and the metadata.
  package func sessionTexts(
    _ id: SessionID, initial: EncodedState, metadata: Data?
  ) throws -> (stacks: [StackRecord], state: String, stacksText: String, metadata: String?) {
    let stacks = try StackRecord.canonical(initial.stacks)
    var validated: [StackRecord] = []
    try StackDelta.between([], stacks).apply(to: &validated)
    let metadataText = try metadata.map { try text($0, "metadata of session \(id)") }
    let stateText = try text(initial.json, "initial state of session \(id)")
    return (stacks, stateText, StorageJSON.text(stacks), metadataText)
  }

  /// A snapshot's stored texts: the state and its stacks, sorted.
  package func snapshotTexts(_ state: EncodedState, session: SessionID) throws
    -> (state: String, stacks: String)
  {
    let stateText = try text(state.json, "state of the snapshot of session \(session)")
    return (stateText, StorageJSON.text(try StackRecord.canonical(state.stacks)))
  }
}
