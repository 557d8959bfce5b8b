import ArgumentParser
import Foundation
import StackStorage

extension StackJournalCommand {
  /// `stackjournal stats`: sizes, activity and snapshot coverage.
  public struct Stats: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Show sizes per table and session, entries per second over time, and snapshot "
        + "coverage.",
      discussion: """
        Snapshot coverage: the largest number of entries between two snapshots (or after the \
        latest) is the most a restore of that session replays.
        """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("Only this session.", valueName: "session"))
    var session: String?

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Prints the statistics.
    public func run() async throws {
      try await reportingErrors {
        let journal = try await database.openReadOnly()
        let id = session.map(SessionID.init(rawValue:))
        if let id { _ = try await journal.requireSession(id) }
        let stats = try await journal.statistics(session: id)
        let place = journal.locationDescription
        let out = Terminal.standardOutput
        defer { out.flush() }
        if output.json {
          out.rawLine(try ReportJSON.text(StatsReport(stats, path: place)))
          return
        }
        if journal is SQLiteJournal {
          out.line(out.styled("File \(place)", .bold))
          out.line(
            "  \(TimeFormat.bytes(stats.fileBytes)) in pages of \(stats.pageSize) bytes, "
              + "\(stats.freePages) free; write-ahead log "
              + (stats.walBytes.map(TimeFormat.bytes) ?? "none"))
        } else {
          out.line(out.styled("Database \(place)", .bold))
          out.line(
            "  \(TimeFormat.bytes(stats.fileBytes)) on disk in the schema's tables and indexes, "
              + "in blocks of \(stats.pageSize) bytes")
        }
        out.line()
        var tables = Table([("TABLE / INDEX", .left), ("ROWS", .right), ("SIZE", .right)])
        for object in stats.objects {
          tables.add([
            object.kind == "index" ? "  \(object.name) (index)" : object.name,
            object.rows.map(String.init) ?? "",
            object.bytes.map(TimeFormat.bytes) ?? "?",
          ])
        }
        tables.lines(on: out).forEach(out.line)
        out.line()
        var sessions = Table([
          ("SESSION", .left), ("ENTRIES", .right), ("HEAD", .right), ("SIZE", .right),
          ("SNAPSHOTS", .right), ("LATEST", .right), ("MAX REPLAY", .right),
        ])
        for session in stats.sessions {
          sessions.add([
            session.id.description, String(session.entries), String(session.headSequence),
            TimeFormat.bytes(session.size.totalBytes), String(session.size.snapshotCount),
            session.latestSnapshot.map(String.init) ?? "-", String(session.largestSnapshotGap),
          ])
        }
        sessions.lines(on: out).forEach(out.line)
        guard !stats.activity.isEmpty else { return }
        out.line()
        let seconds = stats.activity[0].seconds
        out.line(out.styled("Entries per \(Self.interval(seconds)) (UTC)", .bold))
        let peak = stats.activity.map(\.entries).max() ?? 1
        for bucket in stats.activity {
          let bar = String(repeating: "█", count: max(1, Int(40 * bucket.entries / max(peak, 1))))
          let rate = Double(bucket.entries) / Double(bucket.seconds)
          out.line(
            "  \(TimeFormat.display(bucket.start).prefix(19))  "
              + StackRendering.padLeft(String(bucket.entries), 8) + "  "
              + StackRendering.padLeft(String(format: "%.1f/s", rate), 10) + "  "
              + out.styled(bar, .cyan))
        }
      }
    }

    static func interval(_ seconds: Int) -> String {
      switch seconds {
      case 1: "second"
      case 60: "minute"
      case 3600: "hour"
      case 86400: "day"
      case let s where s % 86400 == 0: "\(s / 86400) days"
      case let s where s % 3600 == 0: "\(s / 3600) hours"
      case let s where s % 60 == 0: "\(s / 60) minutes"
      default: "\(seconds) seconds"
      }
    }
  }
}
