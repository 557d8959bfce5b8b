import ArgumentParser
import Foundation
import StackNavigation
import StackStorage

extension StackJournalCommand {
  /// `stackjournal log SESSION`: the journal entries, streamed.
  public struct Log: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Print a session's journal entries: sequence, time, action, stack change, payload.",
      discussion: """
        Entries print oldest first (newest last), as they are read: memory stays flat on any \
        journal. Filters combine. TIME is \(TimeExpression.accepted).

        An entry whose reducer drew from its dependencies says how many of each kind it drew \
        (`drew 2 uuid, 1 date`), and one that recorded the environment (time zone, locale, \
        calendar) says so; replay hands them back. --json and --ndjson carry them per entry as \
        "draws" (the values, e.g. [{"uuid": "…"}, {"date": 786123456.789}]) and "environment" \
        (or null).

        Examples:
          stackjournal log demo-1 --db demo.sqlite -n 20
          stackjournal log demo-1 --since 14:00 --until 14:05 --type '*counter*'
          stackjournal log demo-1 --ndjson | jq -r .type
          stackjournal log demo-1 --follow
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var sessionArgument: SessionArgument

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Start at this sequence (inclusive).", valueName: "seq"))
    var from: Int64?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("End at this sequence (inclusive).", valueName: "seq"))
    var to: Int64?

    @Option(help: ArgumentHelp("Only entries recorded at or after TIME.", valueName: "time"))
    var since: TimeExpression?

    @Option(help: ArgumentHelp("Only entries recorded at or before TIME.", valueName: "time"))
    var until: TimeExpression?

    @Option(
      name: [.customShort("n"), .customLong("lines")], parsing: .unconditional,
      help: ArgumentHelp("Only the last N matching entries.", valueName: "n"))
    var lines: Int?

    @Flag(name: [.customShort("r"), .long], help: "Newest first.")
    var reverse = false

    @Option(
      help: ArgumentHelp(
        "Only actions whose type matches: a glob (*, ?, [..]; case-sensitive), or, without "
          + "wildcards, types containing PATTERN.",
        valueName: "pattern"))
    var type: String?

    @Flag(
      name: [.customShort("f"), .long],
      help: "After the last entry, wait for new ones and print them as they come (like tail -f).")
    var follow = false

    @Flag(help: "Print one JSON document: {\"session\", \"entries\": [...]}.")
    var json = false

    @Flag(help: "Print one JSON object per line, per entry.")
    var ndjson = false

    @Option(help: .hidden)
    var pollInterval: Int = 200

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Checks that the options fit together.
    public func validate() throws {
      if json && ndjson { throw ValidationError("Choose one of --json and --ndjson.") }
      if follow && reverse {
        throw ValidationError("--follow prints new entries last; drop --reverse.")
      }
      if follow && json {
        throw ValidationError("--follow never ends a JSON document; use --ndjson with --follow.")
      }
      if let from, let to, from > to {
        throw ValidationError("--from \(from) is after --to \(to).")
      }
      try NumberOption.requireCount(lines, "-n")
      try NumberOption.requireSequence(from, "--from")
      try NumberOption.requireSequence(to, "--to")
    }

    /// Prints the entries.
    public func run() async throws {
      try await reportingErrors {
        let journal = try await database.openReadOnly(watchingForWrites: follow)
        let session = sessionArgument.id
        // The bounds are two indexed lookups: no count over the journal before the first line.
        let (_, head) = try await journal.journalBounds(session: session)
        var query = await JournalQuery(
          fromSequence: from, toSequence: to,
          since: try since?.resolve(in: journal, session: session, option: "--since"),
          until: try until?.resolve(in: journal, session: session, option: "--until"),
          typeGlob: type.map(Self.glob), last: lines, newestFirst: reverse)
        if let from, from > head, !follow {
          throw CLIFailure(
            message: "Session \(session) has no sequence \(from) (--from): its journal runs from 0 "
              + "to \(head). Add --follow to wait for it.")
        }
        var printer = Printer(
          session: session, format: json ? .json : ndjson ? .ndjson : .text,
          sequenceWidth: max(3, String(head).count))
        printer.begin()
        // The last sequence read: every entry up to it was printed or did not match.
        var last: Int64 = from.map { $0 - 1 } ?? 0
        try await journal.journalRows(session: session, matching: query) { row in
          try printer.print(row)
          last = max(last, row.sequence)
          if printer.count % Printer.entriesPerFlush == 0 { Terminal.standardOutput.flush() }
          return true
        }
        if !follow {
          printer.end()
          return
        }
        // The query read every entry up to the head it started at; one a filter left out was
        // not lost to a compaction.
        last = max(last, to.map { min($0, head) } ?? head)
        Terminal.standardOutput.flush()
        query.last = nil
        query.newestFirst = false
        while true {
          if let to, last >= to { return }
          try await Task.sleep(for: .milliseconds(max(10, pollInterval)))
          // A `compact` may have removed entries this command has not printed yet: say so,
          // and go on from the oldest entry kept.
          let (base, readable) = try await journal.journalBounds(session: session)
          if base > last, base >= (from ?? 0) {
            let first = max(last + 1, from ?? 0)
            Terminal.standardOutput.flush()
            Terminal.standardError.write(
              Terminal.printable(
                "log: entries \(first)…\(base) of session \(session) were removed by a "
                  + "compaction before they were printed; going on from entry \(base + 1).")
                + "\n")
            last = base
          }
          query.fromSequence = max(last + 1, from ?? 0)
          try await journal.journalRows(session: session, matching: query) { row in
            try printer.print(row)
            last = row.sequence
            return true
          }
          last = max(last, to.map { min($0, readable) } ?? readable)
          Terminal.standardOutput.flush()
        }
      }
    }

    /// A pattern without wildcards matches types containing it.
    static func glob(_ pattern: String) -> String {
      pattern.contains(where: { "*?[".contains($0) }) ? pattern : "*\(pattern)*"
    }
  }
}

/// Prints journal entries for people, as NDJSON or inside one JSON document.
struct Printer {
  /// How many entries `log` prints between flushes.
  static let entriesPerFlush = 256

  enum Format {
    case text
    case json
    case ndjson
  }

  let session: SessionID
  let format: Format
  let sequenceWidth: Int
  private(set) var count = 0
  private let out = Terminal.standardOutput
  private static let typeWidth = 44

  init(session: SessionID, format: Format, sequenceWidth: Int) {
    self.session = session
    self.format = format
    self.sequenceWidth = sequenceWidth
  }

  func begin() {
    switch format {
    case .text:
      out.line(
        out.styled(
          StackRendering.padLeft("SEQ", sequenceWidth) + "  "
            + StackRendering.pad("TIME (UTC)", 23) + "  "
            + StackRendering.pad("ACTION", Self.typeWidth) + "  STACK CHANGE / PAYLOAD", .bold))
    case .json:
      out.write("{\"session\":\(JSONValue.quoted(session.rawValue)),\"entries\":[")
    case .ndjson:
      break
    }
  }

  mutating func print(_ row: JournalRow) throws {
    let delta = try row.decodedDelta()
    let recordedAt = try row.recordedDate()
    // Draws that cannot be read are said so, and the entry printed: `verify` reports them.
    let draws: EntryDraws?
    let unreadableDraws: String?
    do {
      draws = try row.decodedDraws()
      unreadableDraws = nil
    } catch let error as StorageError {
      draws = nil
      unreadableDraws = error.message
    }
    switch format {
    case .text:
      let change = StackRendering.summary(delta)
      let drew = unreadableDraws == nil ? DrawsText.note(draws) : "draws cannot be read"
      out.line(
        out.styled(StackRendering.padLeft(String(row.sequence), sequenceWidth), .cyan) + "  "
          + out.styled(TimeFormat.display(recordedAt), .dim) + "  "
          + StackRendering.pad(row.type, Self.typeWidth) + "  "
          + (change.isEmpty ? "" : out.styled(change, .yellow) + "  ")
          + (drew.isEmpty ? "" : out.styled(drew, unreadableDraws == nil ? .green : .red) + "  ")
          + out.styled(ActionDump.text(ofPayload: row.payload), .dim))
    case .json, .ndjson:
      let (drawn, environment) = DrawsText.json(draws)
      var members: [(key: String, value: JSONValue)] = [
        ("sequence", .int(row.sequence)),
        ("time", .string(TimeFormat.iso(recordedAt))),
        ("type", .string(row.type)),
        ("version", .int(row.version)),
        ("payload", JSONValue(lenient: row.payload)),
        ("changes", StackRendering.deltaJSON(delta)),
        ("draws", drawn),
        ("environment", environment),
      ]
      if let unreadableDraws { members.append(("drawsError", .string(unreadableDraws))) }
      let value = JSONValue.object(members)
      if format == .json {
        out.write((count == 0 ? "\n" : ",\n") + value.compact)
      } else {
        out.rawLine(value.compact)
      }
    }
    count += 1
  }

  func end() {
    if format == .json { out.line((count == 0 ? "" : "\n") + "]}") }
    out.flush()
  }
}
