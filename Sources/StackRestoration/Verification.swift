import Foundation
import StackJournalCore
import StackNavigation

/// The first place where replaying a journal does not reproduce what it recorded.
public struct Divergence: Equatable, Sendable, CustomStringConvertible {
  /// What kind of difference this is.
  public enum Kind: String, Equatable, Sendable {
    /// The reducer drew from something the journal does not keep: running it twice on the same
    /// state, action and journaled draws gave different results, or it drew more values than
    /// the entry holds, or one of another kind.
    case nondeterministicReducer
    /// The reducer, run on the recorded action, gives other stacks than were recorded: the
    /// reducer changed since recording, or the entry's action is corrupt.
    case changedReducer
    /// The journal's rows contradict each other: a recorded delta does not apply to the stacks
    /// before it.
    case corruptRow
    /// The entry's action no longer decodes into the app's action type.
    case undecodableEntry
  }

  /// The sequence of the entry after which the difference appears.
  public let sequence: Int64
  /// The action type of that entry.
  public let type: String
  /// What kind of difference this is.
  public let kind: Kind
  /// How the stacks differ, one line per difference.
  public let details: [String]

  public var description: String {
    "sequence \(sequence) (\(type)): \(kind.rawValue)\n" + details.map { "  " + $0 }.joined(separator: "\n")
  }
}

/// The result of replaying a journal and comparing each step with what was recorded.
public struct VerificationReport: Sendable {
  /// The session verified.
  public let session: SessionID
  /// The sequences compared.
  public let range: ClosedRange<Int64>
  /// How many entries were replayed and compared.
  public let checkedCount: Int
  /// The first difference, or `nil` when replay reproduces the journal.
  public let divergence: Divergence?

  /// Whether replay reproduced every recorded step.
  public var isClean: Bool { divergence == nil }
}

extension Replayer {
  /// Replays a session (or part of it) and compares, after each entry, the replayed stacks with
  /// the stacks the journal recorded; stops at the first difference.
  public func verify(
    session: SessionID,
    from start: Int64 = 0,
    through end: Int64? = nil
  ) async throws -> VerificationReport {
    let head = try await journal.headSequence(session: session)
    let last = Swift.min(end ?? head, head)
    let first = Swift.max(0, Swift.min(start, last))
    let restored = try await restore(session: session, at: .sequence(first))
    guard restored.skipped.isEmpty else {
      return VerificationReport(
        session: session, range: first...last, checkedCount: 0,
        divergence: Divergence(
          sequence: first, type: "(snapshot)", kind: .undecodableEntry,
          details: restored.skipped.map(\.description)))
    }
    var recorded = StackRebuild(
      session: session, from: first, stacks: try await journal.stacks(session: session, at: first))
    var replayedStacks = try StateEncoding.encode(restored.state).stacks
    if let difference = Self.difference(recorded: recorded.stacks, replayed: replayedStacks) {
      return VerificationReport(
        session: session, range: first...last, checkedCount: 0,
        divergence: Divergence(
          sequence: first, type: "(start)", kind: .changedReducer, details: difference))
    }
    var checked = 0
    var checkedThrough = first
    var divergence: Divergence?
    var state = restored.state
    var previous = state
    do {
      try await replayComparing()
    } catch let error as RestorationError where error.code == .journalGap {
      divergence = Divergence(
        sequence: checkedThrough + 1, type: "(gap)", kind: .corruptRow, details: [error.message])
    }
    if divergence == nil, checkedThrough < last {
      divergence = Divergence(
        sequence: checkedThrough + 1, type: "(missing)", kind: .corruptRow,
        details: ["the journal ends at \(checkedThrough), before the session's head \(last)"])
    }
    return VerificationReport(
      session: session, range: first...last, checkedCount: checked, divergence: divergence)

    func replayComparing() async throws {
      try await replay(session: session, from: &state, after: first, through: last) { step in
        let entry = step.entry
        defer { previous = step.state }
        checked += 1
        checkedThrough = entry.sequence
        do {
          try recorded.apply(entry: entry.sequence, entry.delta)
        } catch {
          divergence = Divergence(
            sequence: entry.sequence, type: entry.type, kind: .corruptRow,
            details: ["the recorded delta does not apply to the stacks before it: \(error)"])
          return false
        }
        guard step.decoded else {
          divergence = Divergence(
            sequence: entry.sequence, type: entry.type, kind: .undecodableEntry,
            details: ["the action does not decode into \(Action.self)"])
          return false
        }
        // A draw the journal does not hold: the reducer drew from something not journaled.
        if !step.draws.unjournaled.isEmpty {
          divergence = Divergence(
            sequence: entry.sequence, type: entry.type, kind: .nondeterministicReducer,
            details: step.draws.unjournaled + step.issues)
          return false
        }
        let replayed = try StateEncoding.encode(step.state)
        replayedStacks = replayed.stacks
        // Run the entry again from the same state with the same draws: a reducer that reads
        // something else that changes (`UUID()`, `Date()` called directly) gives another state.
        // An entry written before the journal kept draws drew afresh, and would again.
        let again =
          step.drawsJournaled
          ? await self.reduce(previous, entry, with: step.dependencies)
            .flatMap { try? StateEncoding.encode($0) }
          : nil
        if let again, again.json != replayed.json {
          divergence = Divergence(
            sequence: entry.sequence, type: entry.type, kind: .nondeterministicReducer,
            details: [
              "running the reducer twice on the same state, action and journaled draws gave "
                + "two states: it reads a value that is not journaled (UUID(), Date(), a "
                + "random number not drawn through @Dependency)"
            ] + (Self.difference(recorded: replayed.stacks, replayed: again.stacks) ?? []))
          return false
        }
        if let difference = Self.difference(recorded: recorded.stacks, replayed: replayedStacks) {
          divergence = Divergence(
            sequence: entry.sequence, type: entry.type, kind: .changedReducer,
            details: difference + step.draws.other)
          return false
        }
        if !step.draws.other.isEmpty {
          divergence = Divergence(
            sequence: entry.sequence, type: entry.type, kind: .changedReducer,
            details: step.draws.other)
          return false
        }
        return true
      }
    }
  }

  /// Lines describing how two sets of stacks differ, or `nil` when they are equal.
  ///
  /// Presented destinations are compared where the journal recorded any at that moment: entries
  /// written before the journal recorded presentations (schema 5 on SQLite, 4 on PostgreSQL) hold
  /// none, while replaying them presents what the app presented. A presentation inside a stack
  /// element is compared with the element's state either way.
  static func difference(recorded: [StackRecord], replayed: [StackRecord]) -> [String]? {
    guard recorded != replayed else { return nil }
    if !recorded.contains(where: \.isPresentation), replayed.contains(where: \.isPresentation) {
      return difference(recorded: recorded, replayed: replayed.filter { !$0.isPresentation })
    }
    var lines: [String] = []
    let recordedByPath = Dictionary(recorded.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let replayedByPath = Dictionary(replayed.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    for path in Set(recordedByPath.keys).union(replayedByPath.keys).sorted() {
      let name = path.isEmpty ? "(root)" : path
      let kind =
        (recordedByPath[path] ?? replayedByPath[path])?.isPresentation == true
        ? "presentation" : "stack"
      switch (recordedByPath[path], replayedByPath[path]) {
      case (nil, _?): lines.append("\(kind) '\(name)': replay has it, the journal does not")
      case (_?, nil): lines.append("\(kind) '\(name)': the journal has it, replay does not")
      case let (old?, new?) where old != new:
        if old.nextID != new.nextID {
          lines.append("stack '\(name)': next ID recorded \(old.nextID), replayed \(new.nextID)")
        }
        if old.elements.map(\.id) != new.elements.map(\.id) {
          lines.append(
            "stack '\(name)': IDs recorded \(old.elements.map(\.id)), replayed \(new.elements.map(\.id))")
        }
        let newByID = Dictionary(new.elements.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for element in old.elements {
          if let replayedElement = newByID[element.id], replayedElement.state != element.state {
            lines.append(
              "stack '\(name)' element \(element.id): recorded \(element.state), replayed \(replayedElement.state)")
          }
        }
      default: break
      }
    }
    return lines.isEmpty ? ["the stacks differ"] : lines
  }
}
