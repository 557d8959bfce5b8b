import StackNavigation

/// A small, fast, seeded random number generator (SplitMix64), so scripted sessions repeat.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator from a seed.
  public init(seed: UInt64) {
    self.state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Scripted sessions of the demo features: a user pushing, popping and tapping.
public enum DemoScript {
  /// The seed's deep link: `[counter 42, counter 1729, counter -999]`.
  public static var deepLink: RootFeature.State {
    RootFeature.State(path: [
      .counter(CounterFeature.State(count: 42)),
      .counter(CounterFeature.State(count: 1729)),
      .counter(CounterFeature.State(count: -999)),
    ])
  }

  /// A plausible next action for a state: always valid for that state (it names only elements
  /// that are on the stack).
  ///
  /// - Parameter allowEffects: Whether to tap buttons whose effects send actions back (a
  ///   number fact's request, a counter reaching 5 or more).
  public static func nextAction(
    for state: RootFeature.State,
    using generator: inout some RandomNumberGenerator,
    allowEffects: Bool = true
  ) -> RootFeature.Action {
    let path = state.path
    let roll = Int.random(in: 0..<100, using: &generator)
    if path.isEmpty || (roll < 14 && path.count < 12) {
      return Bool.random(using: &generator)
        ? .pushCounterTapped(count: Int.random(in: -3...3, using: &generator))
        : .pushNumberFactTapped(number: Int.random(in: 0...100, using: &generator))
    }
    if roll < 18 && path.count < 12 {
      return .path(
        .push(id: path.nextID, state: .counter(CounterFeature.State(count: 0))))
    }
    if roll < 26 || path.count >= 12 {
      return .path(.popFrom(id: path.ids.randomElement(using: &generator)!))
    }
    if roll < 28 {
      return .goBackToRootTapped
    }
    let index = Int.random(in: 0..<path.count, using: &generator)
    let id = path.ids[index]
    switch path[index] {
    case let .counter(counter):
      // An increment to 5 or more dismisses the counter through an effect.
      let increment =
        Bool.random(using: &generator) && (allowEffects || counter.count < 4)
      return .path(
        .element(id: id, action: .counter(increment ? .incrementButtonTapped : .decrementButtonTapped)))
    case .numberFact:
      let choice = Int.random(in: 0..<(allowEffects ? 3 : 2), using: &generator)
      let action: NumberFactFeature.Action =
        choice == 0 ? .incrementButtonTapped : choice == 1 ? .decrementButtonTapped : .factButtonTapped
      return .path(.element(id: id, action: .numberFact(action)))
    }
  }
}
