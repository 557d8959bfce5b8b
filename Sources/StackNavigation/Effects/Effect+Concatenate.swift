// Effects that run one after another, as the Composable Architecture's `concatenate` runs them.

extension Effect {
  /// Runs effects one after another: each starts once the one before it has finished.
  ///
  /// Cancelling the whole (with ``cancellable(id:cancelInFlight:)`` around it, or by popping the
  /// element whose reducer returned it) cancels the effect running and the ones not yet started.
  /// Effects at the start that only send actions send them right away, as they would alone.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await _ in self.clock.timer(interval: .seconds(1)) { await send(.timerTick) }
  /// }
  /// .cancellable(id: CancelID.timer)
  /// .concatenate(with: .send(.stopButtonTapped))
  /// ```
  public static func concatenate(_ effects: Self...) -> Self {
    concatenate(effects)
  }

  /// Runs a collection of effects one after another: each starts once the one before it has
  /// finished.
  public static func concatenate(_ effects: some Collection<Self>) -> Self {
    let parts = effects.map { $0.operations }.filter { !$0.isEmpty }
    switch parts.count {
    case 0: return .none
    case 1: return Self(operations: parts[0])
    default: return Self(operations: [.concatenate(parts)])
    }
  }

  /// Runs this effect, then `other` once this one has finished.
  public func concatenate(with other: Self) -> Self {
    .concatenate([self, other])
  }
}

extension Effect.Operation {
  /// Whether this operation starts asynchronous work, rather than only sending or cancelling.
  var startsWork: Bool {
    switch self {
    case .send, .cancel: return false
    case .run: return true
    case let .cancellable(_, _, inner): return inner.contains { $0.startsWork }
    case let .concatenate(effects): return effects.contains { $0.contains { $0.startsWork } }
    }
  }
}
