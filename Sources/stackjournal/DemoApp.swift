import ArgumentParser
import StackJournalCLI
import StackJournalDemo

/// The demo's reducer, for the commands that replay with an app's code.
enum DemoReplay: ReplayableApp {
  static func reducer() -> RootFeature { RootFeature() }
}

extension StackJournalTool {
  /// `demo-app`: the commands an app's own executable gets from `StackJournalCLI` with its
  /// reducer, here with the demo's `RootFeature`.
  struct DemoApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "demo-app",
      abstract: "Replay and verify with the demo's reducer (what an app's executable gets).",
      discussion: """
        An app builds its own executable with StackJournalCommand.makeConfiguration(\
        commandName:replaying:) and a ReplayableApp naming its reducer; it then has every \
        stackjournal command plus `replay SESSION --to SEQ` and `verify --replay`. These two \
        are shown here with the demo's RootFeature, on files written by `stackjournal demo`.
        """,
      subcommands: StackJournalCommand.replayCommands(for: DemoReplay.self))
  }
}
