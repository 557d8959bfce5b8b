// Records into a journal until it is killed, printing a line each time a write has returned.
// The crash and process tests start several, kill them at random moments and check that every
// acknowledged action survived.
//
//   stackjournal-recorder DB SESSION SEED
//       records the demo script's random actions into SESSION through a RecordingStore,
//       printing `acknowledged N` (the head) after each `send` returned
//   stackjournal-recorder --race DB SESSION COUNT
//       appends to the existing SESSION straight through the journal, each time at the head it
//       just read, until the head reaches COUNT, printing `won N` for an append that wrote
//       sequence N and `lost N` for one refused because another writer took N first
//
// DB is an SQLite file or, in a build with the `PostgreSQL` trait, a postgres:// URL.
import Foundation
import StackJournalDemo
import StackRestoration
import StackStorage

#if PostgreSQL
  import StackStoragePostgres
#endif

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("stackjournal-recorder: \(message)\n".utf8))
  exit(status)
}

/// Opens the journal; racers write no snapshots (their entries change no stack).
func openJournal(_ location: String, snapshotInterval: Int) async throws -> any JournalBackend {
  if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
    #if PostgreSQL
      return try await PostgresJournal(
        url: location, options: .init(snapshotInterval: snapshotInterval))
    #else
      fail(
        "this build has no PostgreSQL support; build with `--traits PostgreSQL`", status: 2)
    #endif
  }
  return try SQLiteJournal(path: location, options: .init(snapshotInterval: snapshotInterval))
}

func record(_ journal: any JournalBackend, session: SessionID, seed: UInt64) async throws {
  let store = try await RecordingStore.open(
    session: session, journal: journal, initialState: DemoScript.deepLink
  ) {
    RootFeature()
  }
  var generator = SeededGenerator(seed: seed)
  while true {
    let state = await store.state
    try await store.send(DemoScript.nextAction(for: state, using: &generator)).finish()
    // Written straight to the pipe (no buffering), only after `send` has returned.
    FileHandle.standardOutput.write(Data("acknowledged \(store.sequence)\n".utf8))
  }
}

func race(_ journal: any JournalBackend, session: SessionID, count: Int64) async throws {
  while true {
    let head = try await journal.headSequence(session: session)
    if head >= count { return }
    let entry = JournalEntryDelta(
      type: "race", version: 1, payload: Data(#"{"race":{}}"#.utf8), delta: StackDelta())
    do {
      let written = try await journal.append(session: session, expectedSequence: head, entry)
      FileHandle.standardOutput.write(Data("won \(written)\n".utf8))
    } catch let error as StorageError where error.code == .sequenceConflict {
      FileHandle.standardOutput.write(Data("lost \(head + 1)\n".utf8))
    }
  }
}

var arguments = Array(CommandLine.arguments.dropFirst())
let racing = arguments.first == "--race"
if racing { arguments.removeFirst() }
guard arguments.count == 3, let number = UInt64(arguments[2]) else {
  fail(
    "usage: stackjournal-recorder DB SESSION SEED | --race DB SESSION COUNT", status: 2)
}
do {
  let journal = try await openJournal(arguments[0], snapshotInterval: racing ? 0 : 25)
  let session = SessionID(rawValue: arguments[1])
  if racing {
    try await race(journal, session: session, count: Int64(number))
  } else {
    try await record(journal, session: session, seed: number)
  }
} catch {
  fail("\(error)", status: 1)
}
