import ArgumentParser
import StackJournalCore

/// The `stackjournal` command line: inspect, verify, migrate, export and import StackJournal
/// files without the application's code.
///
/// An app's own executable can reuse every command and add replay with its reducer:
///
/// ```swift
/// @main struct MyAppJournal: AsyncParsableCommand {
///   static let configuration = StackJournalCommand.makeConfiguration(
///     commandName: "myapp-journal", replaying: MyAppReplay.self)
/// }
/// ```
public struct StackJournalCommand: AsyncParsableCommand {
  /// The configuration of the plain `stackjournal` tool.
  public static let configuration: CommandConfiguration = makeConfiguration()

  /// The commands that need no app code, in the order `--help` lists them.
  public static let inspectionCommands: [any ParsableCommand.Type] = [
    Sessions.self, Log.self, Show.self, Diff.self, Report.self, Verify.self, Stats.self,
    Migrate.self, Export.self, Import.self, Compact.self, Prune.self,
  ]

  /// A root configuration with the inspection commands followed by `extraCommands`.
  public static func makeConfiguration(
    commandName: String = "stackjournal",
    abstract: String = "Inspect StackJournal files: sessions, journals, stacks at any moment.",
    extraCommands: [any ParsableCommand.Type] = []
  ) -> CommandConfiguration {
    CommandConfiguration(
      commandName: commandName,
      abstract: abstract,
      discussion: """
        Every command takes the journal file with --db PATH (or STACKJOURNAL_DB), prints for \
        people by default and one JSON document with --json. Inspection commands open the file \
        read-only: they never create, migrate or modify it, and work while an app writes to it.

        Times are \(TimeExpression.accepted).

        Exit status: 0 success; 1 problems found (verify); 2 the command could not run (bad \
        input, missing file, refused import); 64 usage error.
        """,
      version: "0.1.0",
      subcommands: inspectionCommands + extraCommands
    )
  }

  /// A root configuration for an app's executable: the inspection commands, `verify` with
  /// `--replay`, and `replay`, both running the app's reducer.
  public static func makeConfiguration<App: ReplayableApp>(
    commandName: String,
    abstract: String = "Inspect and replay this app's StackJournal files.",
    replaying app: App.Type,
    extraCommands: [any ParsableCommand.Type] = []
  ) -> CommandConfiguration {
    let commands = inspectionCommands.map { command -> any ParsableCommand.Type in
      ObjectIdentifier(command) == ObjectIdentifier(Verify.self)
        ? VerifyReplaying<App>.self : command
    }
    var configuration = makeConfiguration(
      commandName: commandName, abstract: abstract,
      extraCommands: [Replay<App>.self] + extraCommands)
    configuration.subcommands = commands + [Replay<App>.self] + extraCommands
    return configuration
  }

  /// The commands that replay with an app's reducer: `replay` and `verify` (with `--replay`).
  public static func replayCommands<App: ReplayableApp>(for app: App.Type)
    -> [any ParsableCommand.Type]
  {
    [Replay<App>.self, VerifyReplaying<App>.self]
  }

  /// Creates the command; argument parsing fills it.
  public init() {}
}
