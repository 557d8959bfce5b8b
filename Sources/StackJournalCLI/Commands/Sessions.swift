import ArgumentParser
import Foundation
import StackJournalCore

extension StackJournalCommand {
  /// `stackjournal sessions`: every session with its entries, head, activity and size.
  public struct Sessions: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "List the sessions with entry count, head sequence, first/last activity, size.",
      discussion: """
        Sizes count the stored text of a session's journal, snapshots and stack rows. A \
        session whose entries number fewer than its head was compacted.
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Lists the sessions.
    public func run() async throws {
      try await reportingErrors {
        let journal = try await database.openReadOnly()
        let listed = try await journal.sessions()
        let sizes = try await journal.sessionSizes()
        // The sizes, read after the listing, cover every session there is then: a listed session
        // they lack was pruned between the two reads, and is not shown with a size of 0.
        let sessions = listed.filter { sizes[$0.id] != nil }
        let out = Terminal.standardOutput
        defer { out.flush() }
        if output.json {
          let values = sessions.map { info -> JSONValue in
            let size = sizes[info.id]
            return .object([
              ("id", .string(info.id.rawValue)),
              ("entries", .int(info.entryCount)),
              ("headSequence", .int(info.headSequence)),
              ("createdAt", .string(TimeFormat.iso(info.createdAt))),
              ("firstActivity", .optional(info.firstActivity.map(TimeFormat.iso))),
              ("lastActivity", .optional(info.lastActivity.map(TimeFormat.iso))),
              ("bytes", .int(size?.totalBytes ?? 0)),
              ("snapshots", .int(size?.snapshotCount ?? 0)),
              ("forkedFrom", .optional(info.forkedFrom?.rawValue)),
              ("forkedAt", info.forkedAt.map { .int($0) } ?? .null),
              (
                "metadata",
                info.metadata.map { JSONValue(lenient: String(decoding: $0, as: UTF8.self)) }
                  ?? .null
              ),
            ])
          }
          out.rawLine(
            JSONValue.object([
              ("database", .string(journal.locationDescription)), ("sessions", .array(values)),
            ]).pretty)
          return
        }
        guard !sessions.isEmpty else {
          out.line("No sessions in \(journal.locationDescription).")
          return
        }
        var table = Table([
          ("SESSION", .left), ("ENTRIES", .right), ("HEAD", .right),
          ("FIRST ACTIVITY (UTC)", .left), ("LAST ACTIVITY (UTC)", .left), ("SIZE", .right),
          ("FORKED FROM", .left),
        ])
        for info in sessions {
          table.add([
            info.id.description, String(info.entryCount), String(info.headSequence),
            info.firstActivity.map(TimeFormat.display) ?? "-",
            info.lastActivity.map(TimeFormat.display) ?? "-",
            TimeFormat.bytes(sizes[info.id]?.totalBytes ?? 0),
            info.forkedFrom.map { "\($0) @ \(info.forkedAt ?? 0)" } ?? "",
          ])
        }
        table.lines(on: out).forEach(out.line)
        // Identifiers that differ only in how their characters are composed (`é` or `e` and a
        // combining accent) print alike: grouped by `String`'s canonical equivalence, each
        // group is named once, in the order listed.
        let alike = Dictionary(grouping: sessions.map(\.id), by: \.rawValue).values
          .filter { $0.count > 1 }
        let groups = alike.sorted {
          $0[0].rawValue.utf8.lexicographicallyPrecedes($1[0].rawValue.utf8)
        }
        for group in groups {
          out.line(
            "Note: \(group.count) sessions print as \(group[0]) but are different identifiers: "
              + "their characters are composed differently (Unicode NFC and NFD). Name one "
              + "exactly; --json gives each identifier's characters.")
        }
      }
    }
  }
}
