import ArgumentParser
import Foundation
import StackJournalCore

extension StackJournalCommand {
  /// `stackjournal report SESSION`: a self-contained HTML page to travel through a session.
  public struct Report: AsyncParsableCommand {
    /// The most entries a page holds unless `--max-entries` says otherwise.
    public static let defaultMaxEntries = 200_000
    /// The most bytes of embedded data a page holds unless `--max-bytes` says otherwise.
    public static let defaultMaxBytes = 96 << 20

    public static let configuration = CommandConfiguration(
      abstract: "Write one self-contained HTML page to look through a session's history.",
      discussion: """
        The page needs no network and no server: its style, script and the session's data are \
        inside it, so it opens from file:// and can be attached to a bug report. It shows the \
        timeline of the entries (pauses in time marked), a slider, step and play controls and \
        the arrow keys to move through it, the stacks at the selected moment as cards (nested \
        stacks inside their element) with what the entry pushed, popped and changed, the \
        action's type and payload, a filter by action type, and the session's metadata and \
        forks. The stacks at the first moment are rebuilt as `show --at` rebuilds them and the \
        page applies the journal's deltas from there.

        Journal contents are shown as text only, and the page's Content-Security-Policy lets \
        nothing but its own script run.

        --from/--to (sequences) or --since/--until (TIME is \(TimeExpression.accepted)) put part \
        of the session in the page. A session longer than --max-entries (default \
        \(defaultMaxEntries)) is refused with the range to ask for instead.

        Examples:
          stackjournal report demo-1 --db demo.sqlite -o demo-1.html
          stackjournal report demo-1 --from 5000 --to 6000 -o around-the-crash.html
          stackjournal report demo-1 --since 14:00 --until 14:05
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var sessionArgument: SessionArgument

    @Option(
      name: [.customShort("o"), .customLong("output")],
      help: ArgumentHelp(
        "The page to write (default: SESSION.html in the current directory; - for standard "
          + "output).", valueName: "file"))
    var output: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The first moment of the page (a sequence).", valueName: "seq"))
    var from: Int64?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The last moment of the page (a sequence).", valueName: "seq"))
    var to: Int64?

    @Option(
      help: ArgumentHelp("Start before the first entry recorded at or after TIME.",
        valueName: "time"))
    var since: TimeExpression?

    @Option(help: ArgumentHelp("End at the last entry recorded at or before TIME.",
      valueName: "time"))
    var until: TimeExpression?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Refuse a page of more entries than N.", valueName: "n"))
    var maxEntries = Report.defaultMaxEntries

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Refuse a page whose data passes N bytes.", valueName: "n"))
    var maxBytes = Report.defaultMaxBytes

    @OptionGroup var outputFormat: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Checks that the options fit together.
    public func validate() throws {
      if from != nil && since != nil { throw ValidationError("Give --from or --since, not both.") }
      if to != nil && until != nil { throw ValidationError("Give --to or --until, not both.") }
      try NumberOption.requireSequence(from, "--from")
      try NumberOption.requireSequence(to, "--to")
      if let from, let to, from > to {
        throw ValidationError("--from \(from) is after --to \(to).")
      }
      try NumberOption.requireCount(maxEntries, "--max-entries", atLeast: 1)
      try NumberOption.requireCount(maxBytes, "--max-bytes", atLeast: 1024)
      if output == "" { throw ValidationError("-o needs a file name, or - for standard output.") }
    }

    /// Writes the page.
    public func run() async throws {
      try await reportingErrors {
        let journal = try await database.openReadOnly()
        let session = sessionArgument.id
        let info = try await journal.requireSession(session)
        let (base, head) = try await journal.journalBounds(session: session)
        let first: Int64
        if let from {
          try await journal.requireSequence(from, session: session, option: "--from")
          first = from
        } else if let since {
          first = try await firstMoment(
            since: try since.resolve(in: journal, session: session, option: "--since"),
            journal: journal, base: base, head: head)
        } else {
          first = base
        }
        let last: Int64
        if let to {
          try await journal.requireSequence(to, session: session, option: "--to")
          last = to
        } else if let until {
          let date = try await until.resolve(in: journal, session: session, option: "--until")
          guard date >= info.createdAt else {
            throw CLIFailure(
              message: "Session \(session) was created at \(TimeFormat.iso(info.createdAt)), "
                + "after \(TimeFormat.iso(date)) (--until).")
          }
          last = try await journal.sequence(session: session, atOrBefore: date)
          try await journal.requireSequence(last, session: session, option: "--until")
        } else {
          last = head
        }
        guard first <= last else {
          throw CLIFailure(
            message: "The range is empty: it starts at sequence \(first) and ends at \(last).")
        }
        guard last - first <= Int64(maxEntries) else {
          throw CLIFailure(
            message: "Session \(session) has \(last - first) entries from \(first) to \(last), "
              + "more than a page holds (--max-entries \(maxEntries)); ask for a range, such as "
              + "the last \(maxEntries) with --from \(last - Int64(maxEntries)), or raise "
              + "--max-entries.")
        }
        let output = output ?? Self.defaultFileName(for: session)
        let destination = try PageDestination(output)
        let forks = try await journal.sessions().filter { $0.forkedFrom == session }
        let page = try await ReportPage(
          journal: journal, session: info, forks: forks, base: base, from: first, to: last,
          maxDataBytes: maxBytes,
          generator: "stackjournal \(StackJournalCommand.configuration.version)"
        ).build()
        try destination.write(page.html)
        if case .standardOutput = destination { return }
        let shown = URL(fileURLWithPath: output).path
        let out = Terminal.standardOutput
        defer { out.flush() }
        if outputFormat.json {
          out.line(
            JSONValue.object([
              ("session", .string(session.rawValue)), ("output", .string(shown)),
              ("from", .int(first)), ("to", .int(last)), ("entries", .int(page.entries)),
              ("bytes", .int(page.html.count)),
            ]).pretty)
          return
        }
        out.line(
          "Wrote \(shown): session \(session), sequences \(first)–\(last) "
            + "(\(page.entries) entr\(page.entries == 1 ? "y" : "ies")), "
            + "\(TimeFormat.bytes(Int64(page.html.count))).")
        if case .file(let path, _) = destination {
          out.line("Open it in a browser: \(URL(fileURLWithPath: path).absoluteString)")
        }
      }
    }

    /// The moment before the first entry recorded at or after `date`.
    private func firstMoment(
      since date: Date, journal: any InspectableJournal, base: Int64, head: Int64
    ) async throws -> Int64 {
      let session = sessionArgument.id
      let before: Int64
      do {
        before = try await journal.sequence(session: session, atOrBefore: date.addingTimeInterval(-0.001))
      } catch let error as StorageError where error.code == .sequenceOutOfRange {
        return base
      }
      guard before < head else {
        let last = try await journal.recordedAt(session: session, sequence: head)
        throw CLIFailure(
          message: "Session \(session) has no entry recorded at or after "
            + "\(TimeFormat.iso(date)) (--since); its last entry was recorded at "
            + "\(TimeFormat.iso(last)).")
      }
      return max(before, base)
    }

    /// `SESSION.html`, with characters other than letters, digits, `.`, `_` and `-` replaced.
    static func defaultFileName(for session: SessionID) -> String {
      var name = String(
        session.rawValue.unicodeScalars.map { scalar -> Character in
          let allowed =
            (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)))
            || scalar == "." || scalar == "_" || scalar == "-"
          return allowed ? Character(scalar) : "_"
        })
      if name.isEmpty || name.hasPrefix(".") { name = "session" + name }
      return String(name.prefix(120)) + ".html"
    }
  }
}
