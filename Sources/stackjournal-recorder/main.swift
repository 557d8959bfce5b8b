// Records a scripted demo session into a journal until it is killed, printing the sequence
// of the journal's head each time a `send` has returned. The crash tests kill it at random
// moments and check that every acknowledged action survived.
//
//   stackjournal-recorder DB SESSION SEED
import Foundation
import StackJournalDemo
import StackRestoration
import StackStorage

let arguments = CommandLine.arguments
guard arguments.count == 4, let seed = UInt64(arguments[3]) else {
  FileHandle.standardError.write(Data("usage: stackjournal-recorder DB SESSION SEED\n".utf8))
  exit(2)
}
do {
  let journal = try SQLiteJournal(path: arguments[1], options: .init(snapshotInterval: 25))
  let store = try RecordingStore.open(
    session: SessionID(rawValue: arguments[2]), journal: journal,
    initialState: DemoScript.deepLink
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
} catch {
  FileHandle.standardError.write(Data("stackjournal-recorder: \(error)\n".utf8))
  exit(1)
}
