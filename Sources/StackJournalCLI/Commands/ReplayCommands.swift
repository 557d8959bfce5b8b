import ArgumentParser
import Foundation
import StackJournalCore
import StackNavigation
import StackRestoration

/// An app's reducer and encoding, for the commands that replay its journals: `replay` and
/// `verify --replay`.
///
/// ```swift
/// enum MyAppReplay: ReplayableApp {
///   static func reducer() -> AppFeature { AppFeature() }
/// }
/// ```
public protocol ReplayableApp {
  /// The app's root reducer.
  associatedtype Feature: Reducer
  where Feature.State: Codable & Sendable, Feature.Action: Codable & Sendable

  /// The app's current payload version (1 by default).
  static var payloadVersion: Int { get }
  /// The app's upcasters from older payload versions (none by default).
  static var upcasters: [PayloadUpcaster] { get }
  /// Creates the root reducer.
  static func reducer() -> Feature
}

extension ReplayableApp {
  /// Version 1.
  public static var payloadVersion: Int { 1 }
  /// No upcasters.
  public static var upcasters: [PayloadUpcaster] { [] }

  static func openJournal(_ database: DatabaseOptions) async throws -> any InspectableJournal {
    try await database.openReadOnly(payloadVersion: payloadVersion, upcasters: upcasters)
  }

  static func replayer(_ journal: any JournalBackend) -> Replayer<Feature.State, Feature.Action> {
    Replayer(journal: journal, payloadVersion: payloadVersion) { reducer() }
  }
}

extension StackJournalCommand {
  /// `replay SESSION --to SEQ`: the app's full state at a moment, through its own reducer.
  public struct Replay<App: ReplayableApp>: AsyncParsableCommand {
    /// The command's name and help.
    public static var configuration: CommandConfiguration {
      CommandConfiguration(
        commandName: "replay",
        abstract: "Restore a session's full state at a moment through the app's reducer.",
        discussion: """
          Loads the nearest snapshot at or below the moment and replays the journal's actions \
          through \(App.Feature.self), without running effects. Prints the state, what was \
          skipped because it no longer decodes, and the issues the reducer reported. TIME is \
          \(TimeExpression.accepted).
          """)
    }

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var sessionArgument: SessionArgument

    @OptionGroup var moment: MomentOptions<ReplayMoment>

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Restores and prints the state.
    public func run() async throws {
      try await reportingErrors {
        let journal = try await App.openJournal(database)
        let session = sessionArgument.id
        let info = try await journal.requireSession(session)
        let target: RestoreTarget
        switch try await moment.moment(in: journal, session: info) {
        case .head: target = .head
        case .sequence(let to): target = .sequence(to)
        case .time(let date): target = .date(date)
        }
        let restored = try await App.replayer(journal).restore(session: session, at: target)
        let encoded = try StateEncoding.encode(restored.state)
        try output.print {
          JSONValue.object([
            ("session", .string(session.rawValue)),
            ("sequence", .int(restored.sequence)),
            ("headSequence", .int(info.headSequence)),
            ("snapshotSequence", .int(restored.snapshotSequence)),
            ("replayed", .int(restored.replayedCount)),
            ("complete", .bool(restored.isComplete)),
            ("skipped", .array(restored.skipped.map { .string($0.description) })),
            ("issues", .array(restored.replayIssues.map(JSONValue.string))),
            ("state", JSONValue(lenient: String(decoding: encoded.json, as: UTF8.self))),
            (
              "stacks",
              .array(encoded.stacks.filter { !$0.isPresentation }.map(StackRendering.stackJSON))
            ),
            ("presentations", .array(ShownPresentation.all(in: encoded.stacks).map(\.json))),
          ])
        } text: { out in
          out.line(
            out.styled("Session \(session) at sequence \(restored.sequence)", .bold)
              + " (head \(info.headSequence)): snapshot \(restored.snapshotSequence) + "
              + "\(restored.replayedCount) action(s) replayed through \(App.Feature.self)")
          var dumped = ""
          customDump(restored.state, to: &dumped)
          dumped.split(separator: "\n", omittingEmptySubsequences: false).forEach {
            out.line("  " + $0)
          }
          for item in restored.skipped { out.line(out.styled("  skipped: \(item)", .yellow)) }
          for issue in restored.replayIssues { out.line(out.styled("  issue: \(issue)", .yellow)) }
        }
      }
    }
  }

  /// `verify [SESSION] [--replay]`: the storage checks and, with `--replay`, a replay of every
  /// entry through the app's reducer compared with what the journal recorded.
  public struct VerifyReplaying<App: ReplayableApp>: AsyncParsableCommand {
    /// The command's name and help.
    public static var configuration: CommandConfiguration {
      CommandConfiguration(
        commandName: "verify",
        abstract: "Check a journal file's integrity; with --replay, replay it through the app.",
        discussion: VerifyReport.discussion + """


          --replay also replays every entry through \(App.Feature.self) and compares the \
          stacks after each with the recorded ones; it reports the first divergence per \
          session (changed reducer, nondeterministic reducer, undecodable entry, corrupt row).
          """)
    }

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("Check only this session.", valueName: "session"))
    var session: String?

    @Flag(help: "Replay every entry through the app's reducer and compare.")
    var replay = false

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Verifies; exits 1 when it finds problems.
    public func run() async throws {
      try await reportingErrors {
        let journal = try await VerifyReport.readable(database.path) { try await App.openJournal(database) }
        let id = session.map(SessionID.init(rawValue:))
        if let id { _ = try await journal.requireSession(id) }
        let storage = try await VerifyReport.readable(database.path) {
          try await journal.verifyStorage(session: id, maxProblemsPerSession: 20)
        }
        var results: [VerifyReport.Replay]?
        if replay {
          let replayer = App.replayer(journal)
          var replayed: [VerifyReport.Replay] = []
          for checked in storage.sessions {
            let report = try await replayer.verify(
              session: checked.session, from: checked.baseSequence)
            replayed.append(
              VerifyReport.Replay(
                session: checked.session, checked: report.checkedCount,
                divergence: report.divergence.map {
                  ($0.sequence, $0.type, $0.kind.rawValue, $0.details)
                }))
          }
          results = replayed
        }
        var report = VerifyReport(journal: journal, storage: storage, replay: results)
        await report.readDrawsJournaledFrom(journal)
        report.print(json: output.json)
        if !report.isClean { throw ExitCode.problemsFound }
      }
    }
  }
}
