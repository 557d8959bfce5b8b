import Foundation

/// Rebuilds a session's stacks from its oldest snapshot, one entry's delta at a time, checking
/// each step: every entry's sequence is the one after the last, every delta reads and applies to
/// the stacks before it, every later snapshot holds the stacks rebuilt at its sequence.
///
/// A journal's verification walks a journal's rows with it and reports what it finds; reading a
/// session export walks the file's lines with it and refuses the file at the first finding;
/// ``StackRebuild``, which rebuilds the stacks at a sequence for every reader, takes its steps.
/// It needs no database, so any backend can walk its rows with it.
package struct DeltaWalk: Sendable {
  /// What a step found wrong.
  package enum Finding: Error, Equatable, Sendable {
    /// The entry's sequence is not the one after the walk's.
    case outOfSequence(expected: Int64, found: Int64)
    /// The entry's delta is not the JSON of a ``StackDelta``.
    case unreadableDelta
    /// The entry's delta does not apply to the stacks before it: why.
    case inapplicableDelta(String)
    /// The snapshot's stacks differ from the stacks rebuilt at its sequence: how.
    case snapshotDiffers(String)
  }

  /// The sequence the walk has reached.
  package private(set) var sequence: Int64
  /// The stacks at ``sequence``.
  package private(set) var stacks: [StackRecord]

  private static let decoder = JSONDecoder()

  /// Starts at a snapshot: its sequence and stacks.
  package init(base: Int64, stacks: [StackRecord]) {
    self.sequence = base
    self.stacks = stacks
  }

  /// Moves to the next entry, applying its delta (JSON text).
  ///
  /// On a finding the walk stays where it was.
  package mutating func apply(entry sequence: Int64, delta: String) throws(Finding) {
    try requireNext(sequence)
    guard let decoded = try? Self.decoder.decode(StackDelta.self, from: Data(delta.utf8)) else {
      throw .unreadableDelta
    }
    try apply(entry: sequence, decoded)
  }

  /// Moves to the next entry, applying its delta with ``StackDelta/apply(to:)``.
  ///
  /// On a finding the walk stays where it was.
  package mutating func apply(entry sequence: Int64, _ delta: StackDelta) throws(Finding) {
    try requireNext(sequence)
    do {
      // `apply(to:)` leaves the stacks as they were when it throws.
      try delta.apply(to: &stacks)
    } catch let error as StorageError {
      throw .inapplicableDelta(error.message)
    } catch {
      throw .inapplicableDelta("\(error)")
    }
    self.sequence = sequence
  }

  /// Throws ``Finding/outOfSequence(expected:found:)`` unless `sequence` follows the walk's.
  private func requireNext(_ sequence: Int64) throws(Finding) {
    guard self.sequence < Int64.max, sequence == self.sequence + 1 else {
      throw .outOfSequence(expected: self.sequence &+ 1, found: sequence)
    }
  }

  /// Compares a snapshot taken at the walk's sequence with the rebuilt stacks.
  package func check(snapshot recorded: [StackRecord]) throws(Finding) {
    guard recorded != stacks else { return }
    throw .snapshotDiffers(StackComparison.difference(stacks, recorded))
  }
}
