import ArgumentParser
import StackJournalCLI

/// The `stackjournal` executable: the inspection commands of `StackJournalCommand`, the
/// `demo`, and `demo-app`, which shows what an app's own executable gets with its reducer.
@main
struct StackJournalTool: AsyncParsableCommand {
  static let configuration: CommandConfiguration = StackJournalCommand.makeConfiguration(
    extraCommands: [Demo.self, DemoApp.self])

  /// Runs the command, then fails when what it printed could not all be written.
  static func main() async {
    await main(nil)
    StackJournalCommand.finishStandardOutput()
  }
}
