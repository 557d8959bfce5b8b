import ArgumentParser
import Testing

@testable import StackJournalCLI

/// `diff SESSION FROM TO` reads its sequences in the order given, wherever the options are, and
/// refuses a negative one as options refuse theirs (``NumberOption``).
struct DiffArgumentsTests {
  private func message(_ arguments: [String]) -> String? {
    do {
      _ = try StackJournalCommand.Diff.parse(arguments)
      return nil
    } catch {
      return StackJournalCommand.Diff.message(for: error)
    }
  }

  @Test(arguments: [
    ["s", "0", "10", "--db", "j.sqlite"], ["--db", "j.sqlite", "s", "0", "10", "--json"],
    ["s", "--db", "j.sqlite", "0", "10"], ["s", "0", "--json", "10", "--db", "j.sqlite"],
  ])
  func readsFromAndToInOrder(_ arguments: [String]) throws {
    let diff = try StackJournalCommand.Diff.parse(arguments)
    #expect(diff.from == 0)
    #expect(diff.to == 10)
    #expect(diff.sessionArgument.id == "s")
  }

  @Test(arguments: [
    (["s", "-1", "3"], "FROM -1: sequences start at 0, the initial state."),
    (["s", "3", "-1"], "TO -1: sequences start at 0, the initial state."),
    (["s", "-2", "-1"], "FROM -2: sequences start at 0, the initial state."),
  ])
  func refusesANegativeSequenceByName(_ arguments: [String], _ expected: String) {
    #expect(message(arguments + ["--db", "j.sqlite"]) == expected)
  }

  @Test(arguments: [
    (["s", "3"], "Missing expected argument '<to>'."),
    (["s"], "Missing expected argument '<from>'."),
    (["s", "1", "2", "3"], "Unexpected argument '3'."),
    (["s", "1", "x"], "TO 'x' is not a sequence: give a whole number."),
    (["s", "1", "2", "--bogus"], "Unknown option '--bogus'."),
    (["s", "5", "2"], "FROM (5) is after TO (2); swap them."),
  ])
  func refusesAnythingButTwoSequencesInOrder(_ arguments: [String], _ expected: String) {
    #expect(message(arguments + ["--db", "j.sqlite"]) == expected)
  }
}
