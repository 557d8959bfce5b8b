import Foundation
import StackRestoration
import StackStorage

#if PostgreSQL
  import StackStoragePostgres
#endif

/// Where `demo` records: an SQLite file, checked first, or a PostgreSQL database.
extension StackJournalTool.Demo {
  /// Opens the journal to record into, with the session given if it is free: an existing
  /// file is checked read-only first, so a refusal leaves it byte-for-byte as it was.
  func openJournal() async throws -> (journal: any InspectableJournal, session: SessionID?) {
    if let session { try SessionID(session).validate() }
    var chosen = session.map(SessionID.init(rawValue:))
    if isPostgres {
      #if PostgreSQL
        guard durability == .full else {
          throw DemoError(
            "--durability is for SQLite files; PostgreSQL commits with the server's "
              + "synchronous_commit (on by default).")
        }
        let journal = try await PostgresJournal(
          url: path, options: .init(snapshotInterval: snapshotInterval))
        if let id = chosen, try await journal.session(id) != nil {
          throw DemoError(
            "The session \(id) exists in \(journal.locationDescription) already; choose "
              + "another --session.")
        }
        return (journal, chosen)
      #else
        throw DemoError(
          "This stackjournal was built without PostgreSQL support; build it with "
            + "`swift build --traits PostgreSQL` to use a postgres:// journal.")
      #endif
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw DemoError("\(path) is a directory; give the path of a journal file.")
    }
    if FileManager.default.fileExists(atPath: path) {
      // Its pages (a damaged one would fail the recording half-way) and the session.
      let reader = try SQLiteJournal(path: path, options: .init(readOnly: true))
      let problems = try reader.integrityProblems()
      if !problems.isEmpty {
        throw DemoError(
          "The journal \(path) is damaged (SQLite's integrity check: "
            + problems.prefix(3).joined(separator: "; ")
            + "); nothing was recorded and the file was left as it "
            + "was. Run `stackjournal verify --db \(path)`, or give another path.")
      }
      if let id = chosen, try reader.session(id) != nil {
        throw DemoError(
          "The session \(id) exists in \(path) already; choose another --session. The file "
            + "was left as it was.")
      }
      // The free session is found read-only too: listing the sessions reads every row, which
      // may refuse a row edited by hand, and opening the file to write already touches it.
      if chosen == nil { chosen = try await Self.freeSession(in: reader) }
    }
    let journal = try SQLiteJournal(
      path: path,
      options: .init(durability: durability.value, snapshotInterval: snapshotInterval))
    return (journal, chosen)
  }
}
