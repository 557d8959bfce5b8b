import ArgumentParser
import Foundation
import StackJournalCore

extension StackJournalCommand {
  /// `stackjournal show SESSION`: the stacks at one moment, without the app's code.
  public struct Show: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Show the stacks of a session at a sequence or time (the head by default).",
      discussion: """
        For each stack: its path in the state, the next ID it hands out, and its elements with \
        ID, case and state. A coordinator's routes are a stack whose IDs are the routes' \
        positions; each route shows how its screen is presented (push, sheet, cover, with its \
        own navigation or not), the screen's case and its state. Rebuilt from the nearest \
        snapshot and the journal's deltas, without the app's code. --at-time picks the last \
        entry recorded at or before TIME, which is \(TimeExpression.accepted).

        Then what is presented, and where: an alert with its title over a stack's element, a \
        sheet at the root, an alert inside a presented sheet.

        --json prints {"session", "sequence", "time", "stacks": [{"path", "kind" ("stack" or \
        "routes"), "nextID", "elements": [{"id", "case", "state", "route"? {"style", \
        "embedInNavigationView", "screen"}}]}], "presentations": [{"path", "kind" ("alert", \
        "confirmationDialog" or "destination"), "case", "title", "over" ({"stack", "id"} or \
        null), "inside" (the path of the presentation it is inside, or null), "state"}], \
        "drawsJournaledFrom"}.

        A session whose entries were partly written before the journal kept what reducers drew \
        (a journal migrated from an earlier schema) says which: those entries replay with the \
        replaying process's own dependencies; "drawsJournaledFrom" is the first entry that \
        journals its draws.
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var sessionArgument: SessionArgument

    @OptionGroup var moment: MomentOptions<ShowMoment>

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Prints the stacks.
    public func run() async throws {
      try await reportingErrors {
        let journal = try await database.openReadOnly()
        let session = sessionArgument.id
        let moment = self.moment
        let location = journal.locationDescription
        // Everything printed comes from one read transaction, so it agrees with itself even
        // while an app appends.
        let shown: SessionStacks
        do {
          shown = try await journal.sessionStacks(
            session: session, at: { try moment.stacksMoment($0) },
            check: { try moment.check($1, $0, location: location) })
        } catch let error as StorageError where error.code == .unknownSession {
          // Names the sessions there are.
          _ = try await journal.requireSession(session)
          throw error
        }
        let info = shown.bounds.session
        let sequence = shown.sequence
        let stacks = shown.stacks
        let recordedAt = shown.recordedAt
        try output.print {
          JSONValue.object([
            ("session", .string(session.rawValue)),
            ("sequence", .int(sequence)),
            ("headSequence", .int(info.headSequence)),
            ("time", .string(TimeFormat.iso(recordedAt))),
            ("stacks", .array(stacks.filter { !$0.isPresentation }.map(StackRendering.stackJSON))),
            ("presentations", .array(ShownPresentation.all(in: stacks).map(\.json))),
            ("drawsJournaledFrom", .int(info.drawsJournaledFrom)),
          ])
        } text: { out in
          let moment =
            sequence == 0
            ? "initial state" : sequence == info.headSequence ? "head" : "of \(info.headSequence)"
          out.line(
            out.styled("Session \(session) at sequence \(sequence)", .bold)
              + " (\(moment), recorded \(TimeFormat.display(recordedAt)) UTC)")
          StackRendering.lines(stacks, on: out).forEach(out.line)
          ShownPresentation.lines(stacks, on: out).forEach(out.line)
          if let note = DrawsText.unjournaled(
            base: shown.bounds.base, drawsFrom: info.drawsJournaledFrom, head: info.headSequence)
          {
            out.line(out.styled("Note: " + note + ".", .dim))
          }
        }
      }
    }
  }
}
