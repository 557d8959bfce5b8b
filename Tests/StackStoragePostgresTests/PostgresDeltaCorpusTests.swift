#if PostgreSQL
  import StackJournalTestSupport
  import StackStorage
  import StackStoragePostgres
  import XCTest

  /// The cases of `Tests/Fixtures/stack-delta-corpus.json` run by the database's
  /// `apply_stack_change`, reached as every append reaches it: `append_entry_committed(…)` with
  /// the stored delta, on a session whose initial stacks are the case's; the stacks are then read
  /// back from the rows.
  final class PostgresDeltaCorpusTests: PostgresTestCase {
    func testApplyStackChangeFollowsTheCorpus() async throws {
      let journal = try await PostgresJournal(url: url)
      defer { journal.close() }
      for disagreement in try await StackDeltaCorpus().disagreements(of: journal) {
        XCTFail(disagreement)
      }
    }
  }
#endif
