import Foundation
import StackStorage

/// The cases of `Tests/Fixtures/stack-delta-corpus.json`: stacks, a delta as a journal stores
/// it, and the stacks after it or a refusal. Every applier of deltas runs them: the Swift one
/// (and the SQLite stack rows through it), PostgreSQL's `apply_stack_change` and the report
/// page's `applyChanges`.
public struct StackDeltaCorpus: Sendable {
  /// One case.
  public struct Case: Decodable, Sendable {
    /// What the case shows.
    public var name: String
    /// The stacks before, sorted by path.
    public var stacks: [StackRecord]
    /// The delta, as a journal stores it.
    public var delta: StackDelta
    /// The stacks after the delta, sorted by path; `nil` when it is refused.
    public var result: [StackRecord]?
    /// Why the delta does not fit, for people; `nil` when it fits.
    public var refusal: String?
  }

  private struct File: Decodable {
    var cases: [Case]
  }

  /// The file's location in the repository.
  public static let url = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests/Fixtures/stack-delta-corpus.json")

  /// The cases, in the file's order.
  public var cases: [Case]

  /// Reads the file, checking that each case has a result or a refusal and that no two share a
  /// name.
  public init() throws {
    cases = try JSONDecoder().decode(File.self, from: Data(contentsOf: Self.url)).cases
    var names: Set<String> = []
    for item in cases {
      guard (item.result == nil) != (item.refusal == nil), names.insert(item.name).inserted else {
        throw CocoaError(
          .fileReadCorruptFile,
          userInfo: [
            NSLocalizedDescriptionKey:
              "The corpus case `\(item.name)` needs one of result and refusal, and a name of "
              + "its own."
          ])
      }
    }
  }
}

extension StackDeltaCorpus {
  /// Runs every case through a journal's stack rows: a session whose initial stacks are the
  /// case's, then an append of its delta, then the head's stacks read back from the rows. A case
  /// that fits must leave the result; one that does not must be refused with
  /// ``StorageError/Code/inconsistentDelta``, leaving the session at sequence 0 with its stacks.
  /// Returns one line per disagreement.
  public func disagreements(of journal: any JournalBackend) async throws -> [String] {
    var found: [String] = []
    for (number, item) in cases.enumerated() {
      let session = SessionID("corpus-\(number)")
      _ = try await journal.createSession(
        session, initial: EncodedState(json: Data("{}".utf8), stacks: item.stacks), version: 1)
      let entry = JournalEntryDelta(
        type: "corpus", version: 1, payload: Data("{}".utf8), delta: item.delta)
      var refusal: StorageError?
      do {
        _ = try await journal.append(session: session, expectedSequence: 0, entry)
      } catch let error as StorageError where error.code == .inconsistentDelta {
        refusal = error
      }
      let after = try await journal.headStacks(session: session)
      if let result = item.result {
        if let refusal {
          found.append("`\(item.name)`: refused (\(refusal.message)), expected to fit")
        } else if after != result {
          found.append("`\(item.name)`: left \(after), expected \(result)")
        }
      } else if refusal == nil {
        found.append("`\(item.name)`: fit, leaving \(after); expected a refusal: \(item.refusal!)")
      } else if try await (after, journal.headSequence(session: session)) != (item.stacks, 0) {
        found.append("`\(item.name)`: refused but changed the session: \(after)")
      }
    }
    return found
  }
}
