import ArgumentParser
import StackJournalDemo
import Testing

@testable import StackJournalCLI

/// `show` and `replay` read their moment through one option group.
struct MomentOptionsTests {
  static let accepted: [([String], Int64?, String?)] = [
    ([], nil, nil),
    (["--at", "3"], 3, nil),
    (["--at", "0"], 0, nil),
    (["--at-time", "14:02"], nil, "14:02"),
    (["--at-time", "not a time"], nil, "not a time"),
  ]

  @Test(arguments: accepted)
  func showReadsASequenceOrATime(_ arguments: [String], _ sequence: Int64?, _ time: String?)
    throws
  {
    let show = try StackJournalCommand.Show.parse(["s", "--db", "j.sqlite"] + arguments)
    #expect(show.moment.sequence == sequence)
    #expect(show.moment.time?.text == time)
  }

  static let refused: [([String], String)] = [
    (["--at", "3", "--at-time", "14:02"], "Give --at or --at-time, not both."),
    (["--at", "-1"], "--at -1: sequences start at 0, the initial state."),
  ]

  @Test(arguments: refused)
  func showRefusesTwoMomentsOrANegativeSequence(_ arguments: [String], _ message: String) {
    #expect {
      _ = try StackJournalCommand.Show.parse(["s", "--db", "j.sqlite"] + arguments)
    } throws: { error in
      StackJournalCommand.Show.message(for: error).contains(message)
    }
  }

  @Test func replayNamesItsSequenceOptionTo() throws {
    typealias Replay = StackJournalCommand.Replay<DemoReplay>
    #expect(try Replay.parse(["s", "--db", "j.sqlite", "--to", "8"]).moment.sequence == 8)
    #expect(throws: (any Error).self) {
      _ = try Replay.parse(["s", "--db", "j.sqlite", "--at", "8"])
    }
    #expect {
      _ = try Replay.parse(["s", "--db", "j.sqlite", "--to", "1", "--at-time", "14:02"])
    } throws: { error in
      Replay.message(for: error).contains("Give --to or --at-time, not both.")
    }
  }
}

/// The demo's reducer, as an app names its own for `replay`.
enum DemoReplay: ReplayableApp {
  static func reducer() -> RootFeature { RootFeature() }
}
