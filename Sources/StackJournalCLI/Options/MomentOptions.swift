import ArgumentParser
import Foundation
import StackJournalCore

/// How a command names and explains its moment options: `show --at`, `replay --to`.
protocol MomentNames {
  /// The long name of the sequence option, without dashes.
  static var sequenceOption: String { get }
  /// The help of the sequence option.
  static var sequenceHelp: String { get }
  /// The help of `--at-time`.
  static var timeHelp: String { get }
}

/// The moment of a session a command works at: a sequence, a time (`--at-time`), or the head
/// when neither is given. Shared by `show` and `replay`.
struct MomentOptions<Names: MomentNames>: ParsableArguments {
  /// A moment, checked against the session.
  enum Moment: Equatable {
    /// The session's head.
    case head
    /// A sequence from 0 through the head.
    case sequence(Int64)
    /// A time at or after the session's creation.
    case time(Date)
  }

  @Option(
    name: .customLong(Names.sequenceOption), parsing: .unconditional,
    help: ArgumentHelp(Names.sequenceHelp, valueName: "seq"))
  var sequence: Int64?

  @Option(
    name: .customLong("at-time"), help: ArgumentHelp(Names.timeHelp, valueName: "time"))
  var time: TimeExpression?

  init() {}

  /// Checks that at most one moment is given and that a sequence is not negative.
  func validate() throws {
    let option = "--" + Names.sequenceOption
    if sequence != nil && time != nil {
      throw ValidationError("Give \(option) or --at-time, not both.")
    }
    try NumberOption.requireSequence(sequence, option)
  }

  /// The moment asked for: a sequence the session holds, or a time not before its creation.
  func moment(in journal: any InspectableJournal, session: SessionInfo) async throws -> Moment {
    if let sequence {
      try await journal.requireSequence(
        sequence, session: session.id, option: "--" + Names.sequenceOption)
      return .sequence(sequence)
    }
    guard let time else { return .head }
    let date = try await time.resolve(in: journal, session: session.id, option: "--at-time")
    guard date >= session.createdAt else {
      throw CLIFailure(
        message: "Session \(session.id) was created at \(TimeFormat.iso(session.createdAt)), "
          + "after \(TimeFormat.iso(date)) (--at-time).")
    }
    return .time(date)
  }
}

extension MomentOptions {
  /// The moment to read the stacks at, given the session's bounds: the sequence given, the
  /// head when none is, or the last entry at or before a time not before the session's
  /// creation.
  func stacksMoment(_ bounds: SessionBounds) throws -> StacksMoment {
    if let sequence { return .sequence(sequence) }
    guard let time else { return .sequence(bounds.head) }
    let session = bounds.session
    let date = try time.resolve(session: session, option: "--at-time")
    guard date >= session.createdAt else {
      throw CLIFailure(
        message: "Session \(session.id) was created at \(TimeFormat.iso(session.createdAt)), "
          + "after \(TimeFormat.iso(date)) (--at-time).")
    }
    return .atOrBefore(date)
  }

  /// Checks that the sequence a moment given on the command line resolved to lies in the
  /// session's journal; the head needs no check.
  func check(_ sequence: Int64, _ bounds: SessionBounds, location: String) throws {
    guard self.sequence != nil || time != nil else { return }
    try SequenceRange.require(
      sequence, session: bounds.session.id, base: bounds.base, head: bounds.head,
      lastEntry: { bounds.lastEntrySequence },
      option: self.sequence != nil ? "--" + Names.sequenceOption : "--at-time",
      location: location)
  }
}

/// `show --at SEQ | --at-time TIME`.
enum ShowMoment: MomentNames {
  static let sequenceOption = "at"
  static let sequenceHelp = "The sequence to show; 0 is the initial state."
  static let timeHelp = "Show the stacks as they were at TIME."
}

/// `replay --to SEQ | --at-time TIME`.
enum ReplayMoment: MomentNames {
  static let sequenceOption = "to"
  static let sequenceHelp = "The sequence to restore (default: the head)."
  static let timeHelp = "Restore the state as it was at TIME."
}
