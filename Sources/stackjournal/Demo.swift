import ArgumentParser
import Foundation
import StackJournalCLI
import StackJournalDemo
import StackNavigation
import StackRestoration
import StackStorage

extension StackJournalTool {
  /// `stackjournal demo`: records the demo features into a journal, restores a few moments and
  /// shows how to explore the file.
  struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Record the demo features into a journal, restore moments, show what to run next.",
      discussion: """
        Starts from a deep link [counter 42, counter 1729, counter -999], pushes a counter that \
        dismisses itself at 5 (its pop comes from an effect), fetches a number fact (its \
        response comes from an effect), pops and pushes again. Every action is journaled into \
        the file before `send` returns. Then restores the stack at a few moments of the \
        history and prints the stackjournal commands to explore the file. Re-running on an \
        existing file records a new session (demo-2, demo-3, …).

        --actions N adds N more actions, chosen at random from a fixed seed, for a larger \
        history; progress is printed to standard error. For big runs, --durability normal \
        flushes to the disk at checkpoints only (a power loss may lose the last appends, \
        never tear one).

        --db postgres://USER@HOST:PORT/DATABASE records into PostgreSQL instead (a build with \
        `--traits PostgreSQL`); the journal's tables are created there if missing, and the \
        server's own durability applies (--durability is for SQLite files).
        """)

    @Option(
      name: .customLong("db"),
      help: ArgumentHelp(
        "The journal file (or postgres:// URL) to record into (default: STACKJOURNAL_DB, or "
          + "./stackjournal-demo.sqlite).",
        valueName: "path"))
    var db: String?

    /// The journal given (the option, the environment, or the default file): a `postgres://`
    /// URL, or the real file the path names, resolved once (see `ResolvedJournalPaths`).
    var path: String {
      ResolvedJournalPaths.path(
        db ?? ProcessInfo.processInfo.environment["STACKJOURNAL_DB"].flatMap {
          $0.isEmpty ? nil : $0
        } ?? "./stackjournal-demo.sqlite")
    }

    /// Whether the journal is a PostgreSQL database rather than a file.
    var isPostgres: Bool { path.hasPrefix("postgres://") || path.hasPrefix("postgresql://") }

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Record N more random actions after the script.", valueName: "n"))
    var actions = 0

    @Option(help: ArgumentHelp("full, normal or group.", valueName: "mode"))
    var durability: DurabilityChoice = .full

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Write a snapshot every N entries.", valueName: "n"))
    var snapshotInterval = 100

    @Option(
      help: ArgumentHelp(
        "The session identifier (default: the first free demo-N).", valueName: "id"))
    var session: String?

    @Option(help: ArgumentHelp("The seed of the random actions.", valueName: "n"))
    var seed: UInt64 = 42

    @Flag(help: "Print one JSON document instead of text for people.")
    var json = false

    func validate() throws {
      try NumberOption.requireCount(actions, "--actions")
      try NumberOption.requireCount(snapshotInterval, "--snapshot-interval")
    }

    func run() async throws {
      try await reportingErrors { try await record() }
    }

    private func record() async throws {
      let (journal, chosen) = try await openJournal()
      let id: SessionID
      if let chosen { id = chosen } else { id = try await Self.freeSession(in: journal) }
      let reducer = RootFeature().dependency(
        \.numberFact,
        actions > 0 ? NumberFactClient { NumberFactClient.fact(about: $0) } : .liveValue)
      let store = try await RecordingStore<RootFeature.State, RootFeature.Action>.open(
        session: id, journal: journal,
        initialState: DemoScript.deepLink,
        metadata: Data(#"{"source":"stackjournal demo"}"#.utf8)
      ) { reducer }
      guard store.restoration == nil else {
        throw DemoError(
          "The session \(id) exists in \(journal.locationDescription) already; choose another "
            + "--session.")
      }

      // The script: every `send` returns once its action is in the journal.
      var moments: [(label: String, sequence: Int64)] = [("the deep link", 0)]
      try await store.send(.path(.element(id: 2, action: .counter(.decrementButtonTapped))))
      try await store.send(.pushCounterTapped(count: 3))
      moments.append(("counter #3 pushed", store.sequence))
      try await store.send(.path(.element(id: 3, action: .counter(.incrementButtonTapped))))
      try await store.send(.path(.element(id: 3, action: .counter(.incrementButtonTapped))))
      await store.waitForEffects()
      moments.append(("#3 reached 5 and dismissed itself", store.sequence))
      try await store.send(.pushNumberFactTapped(number: 42))
      try await store.send(.path(.element(id: 4, action: .numberFact(.factButtonTapped))))
      await store.waitForEffects()
      moments.append(("the fact arrived from an effect", store.sequence))
      try await store.send(.path(.popFrom(id: 1)))
      try await store.send(.pushCounterTapped(count: 7))
      let scripted = store.sequence

      if actions > 0 {
        try await recordRandomActions(store)
      }
      moments.append(("the head", store.sequence))

      // Restore a few moments from the journal alone: nearest snapshot + replay.
      let replayer = Replayer(journal: journal) { RootFeature() }
      var restored: [(label: String, sequence: Int64, stacks: [StackRecord])] = []
      for moment in moments {
        let state = try await replayer.restore(session: id, at: .sequence(moment.sequence)).state
        restored.append((moment.label, moment.sequence, try StateEncoding.encode(state).stacks))
      }
      let commands = explorationCommands(
        session: id, scripted: scripted, database: journal.locationDescription)

      if json {
        try await printJSON(journal: journal, session: id, moments: restored, commands: commands)
        return
      }
      print(
        "Recorded session \(id) into \(journal.locationDescription): \(store.sequence) actions "
          + "journaled.")
      print()
      print("The first actions, read back from the journal:")
      var table = Table([("SEQ", .right), ("TYPE", .left), ("STACK CHANGE", .left)])
      try await journal.journalRows(session: id, matching: JournalQuery(toSequence: 12)) { row in
        table.add(
          [String(row.sequence), row.type, (try? row.decodedDelta()).map(Self.summary) ?? ""])
        return true
      }
      for line in table.lines() { print("  " + line) }
      if store.sequence > 12 { print("  … \(store.sequence - 12) more") }
      print()
      print("The stack restored at a few moments (Replayer: nearest snapshot + replay):")
      var momentTable = Table([("AT", .right), ("MOMENT", .left)])
      for moment in restored { momentTable.add([String(moment.sequence), moment.label]) }
      let momentLines = momentTable.lines()
      print("  " + momentLines[0])
      for (moment, line) in zip(restored, momentLines.dropFirst()) {
        print("  " + line)
        print("      " + Self.describe(moment.stacks))
      }
      print()
      print(isPostgres ? "Explore the journal:" : "Explore the file:")
      if isPostgres, URLComponents(string: path)?.password != nil {
        print("  (the URLs below leave the password out: give it with PGPASSWORD)")
      }
      for command in commands { print("  \(command)") }
    }

    private func recordRandomActions(
      _ store: RecordingStore<RootFeature.State, RootFeature.Action>
    )
      async throws
    {
      var random = SeededGenerator(seed: seed)
      let start = Date()
      var lastReport = start
      let interactive = isatty(STDERR_FILENO) == 1
      for index in 1...actions {
        let state = await store.state
        try await store.send(DemoScript.nextAction(for: state, using: &random))
        await store.waitForEffects()
        let now = Date()
        if now.timeIntervalSince(lastReport) >= 1 || index == actions {
          lastReport = now
          let rate = Double(index) / max(now.timeIntervalSince(start), 0.001)
          let line =
            "recorded \(index)/\(actions) random actions, head \(store.sequence) "
            + "(\(Int(rate)) actions/s)"
          FileHandle.standardError.write(
            Data(
              (interactive ? "\r\u{1B}[K" + line + (index == actions ? "\n" : "") : line + "\n")
                .utf8))
        }
      }
    }

    private func printJSON(
      journal: any InspectableJournal,
      session: SessionID,
      moments: [(label: String, sequence: Int64, stacks: [StackRecord])],
      commands: [String]
    ) async throws {
      struct Moment: Encodable {
        var label: String
        var sequence: Int64
        var stacks: [StackRecord]
      }
      struct Summary: Encodable {
        var database: String
        var session: String
        var headSequence: Int64
        var moments: [Moment]
        var commands: [String]
      }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let summary = Summary(
        database: journal.locationDescription, session: session.rawValue,
        headSequence: try await journal.headSequence(session: session),
        moments: moments.map { Moment(label: $0.label, sequence: $0.sequence, stacks: $0.stacks) },
        commands: commands)
      print(String(decoding: try encoder.encode(summary), as: UTF8.self))
    }

    private func explorationCommands(session: SessionID, scripted: Int64, database: String)
      -> [String]
    {
      let db = "--db " + Self.quoted(database)
      return [
        "stackjournal sessions \(db)",
        "stackjournal log \(session) \(db)",
        "stackjournal show \(session) --at 0 \(db)",
        "stackjournal show \(session) --at 5 \(db)",
        "stackjournal diff \(session) 0 \(scripted) \(db)",
        "stackjournal report \(session) \(db) -o \(session).html   # open it in a browser",
        "stackjournal log \(session) --ndjson \(db) | jq -c '{sequence, type}'",
        "stackjournal verify \(db)",
        "stackjournal stats \(db)",
        "stackjournal export \(session) \(db) > \(session).ndjson",
        "stackjournal demo-app replay \(session) --to 8 \(db)",
        "stackjournal demo-app verify --replay \(db)",
      ]
    }

    static func freeSession(in journal: any JournalBackend) async throws -> SessionID {
      let taken = Set(try await journal.sessions().map(\.id))
      var number = 1
      while taken.contains(SessionID("demo-\(number)")) { number += 1 }
      return SessionID("demo-\(number)")
    }
  }
}

/// A demo failure with a message for people.
struct DemoError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

