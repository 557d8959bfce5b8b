import Foundation
import StackJournalDemo
import StackNavigation
import StackRestoration
import StackStorage

/// What a workload's next action does to the stack of `count` screens it keeps about `depth`
/// deep: a quarter of the actions push a screen and a quarter pop the top one, within three
/// screens of `depth`; the others change a screen, favouring the top, as a user works on the
/// screen they see.
enum StackStep {
  case push
  case pop
  /// Changes the screen at `index`, bottom first.
  case change(index: Int)

  static func next(count: Int, depth: Int, using generator: inout SeededGenerator) -> StackStep {
    let roll = Int.random(in: 0..<4, using: &generator)
    let low = max(1, depth - 3)
    if (roll == 0 && count < depth + 3) || count < low { return .push }
    if roll == 1 && count > low { return .pop }
    let offset = min(count - 1, Int.random(in: 0..<4, using: &generator))
    return .change(index: count - 1 - offset)
  }
}

/// A feature and the actions a benchmark sends it: ``RecordWorkload`` (``ArticleApp``, the
/// bench's own state) or ``ShopWorkload`` (``ShopApp``, written with the macros).
protocol BenchWorkload {
  associatedtype Feature: Reducer
  where
    Feature.State: Equatable & Codable & Sendable, Feature.Action: Codable & Sendable

  init(depth: Int, seed: UInt64)
  /// The feature's reducer.
  static func feature() -> Feature
  /// A state `depth` screens deep.
  mutating func initialState() -> Feature.State
  /// The next action for `state`.
  mutating func nextAction(for state: Feature.State) -> Feature.Action
  /// The screens of `state`'s stack.
  static func screens(of state: Feature.State) -> [any Encodable]
}

/// The states a benchmark can run, by the name `--state` gives.
enum BenchState: String, CaseIterable, Sendable {
  /// ``ArticleApp``: hand-written reducers, flat screens.
  case article
  /// ``ShopApp``: `@Reducer` features and a `@Reducer enum Path`, nested structs.
  case shop
  /// ``ShopApp`` whose reducers draw an ID and a time for a third of the actions
  /// (``ShopDrawsWorkload``).
  case shopDraws
  /// ``ShopApp`` with two alerts open that no action touches: over the shop and over the
  /// bottom-most product (``ShopAlertsWorkload``).
  case shopAlert
  /// ``ShopApp`` with alerts open over it and over every product screen, pushed ones included.
  case shopAlerts
}

/// One session of a workload: a `RecordingStore` on a journal, or a plain `Store` with no journal
/// that receives the very same actions (`journal: nil`), the baseline of what recording adds.
final class WorkloadRun<Workload: BenchWorkload>: @unchecked Sendable {
  typealias State = Workload.Feature.State
  typealias Action = Workload.Feature.Action

  let recording: RecordingStore<State, Action>?
  let plain: Store<State, Action>?
  private var workload: Workload
  private var state: State

  init(journal: (any JournalBackend)?, depth: Int, session: SessionID, seed: UInt64) async throws {
    var workload = Workload(depth: depth, seed: seed)
    let state = workload.initialState()
    if let journal {
      recording = try await RecordingStore.open(
        session: session, journal: journal, initialState: state
      ) { Workload.feature() }
      plain = nil
    } else {
      recording = nil
      plain = Store(initialState: state) { Workload.feature() }
    }
    self.workload = workload
    self.state = state
  }

  /// Sends the next action and waits until it is processed (for a recording store: journaled).
  func sendOne() async throws {
    let action = workload.nextAction(for: state)
    if let recording {
      try await recording.send(action)
      state = await recording.state
    } else if let plain {
      try await plain.send(action)
      state = await plain.state
    }
  }

  /// Sends `count` actions, each once the previous one is processed.
  func send(_ count: Int) async throws {
    for _ in 0..<count { try await sendOne() }
  }

  /// The size of the state's JSON, and the smallest, average and largest of its screens'.
  func stateSizes() throws -> (state: Int, screens: Int, smallest: Int, average: Int, largest: Int)
  {
    let encoder = JSONEncoder()
    let sizes = try Workload.screens(of: state).map { try encoder.encode($0).count }
    return (
      try encoder.encode(state).count, sizes.count, sizes.min() ?? 0,
      sizes.reduce(0, +) / max(1, sizes.count), sizes.max() ?? 0
    )
  }
}
