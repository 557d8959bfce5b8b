extension Reducer {
  /// Overrides a dependency for this reducer and the effects it returns.
  ///
  /// ```swift
  /// RootFeature()
  ///   .dependency(\.numberFact, NumberFactClient { "\($0) is a number." })
  /// ```
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    let keyPath = UncheckedSendable(keyPath)
    let value = UncheckedSendable(value)
    return _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath.value] = value.value }
  }
}

/// The reducer ``Reducer/dependency(_:_:)`` builds.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: (inout DependencyValues) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies(update) {
      base.reduce(into: &state, action: action)
    }
  }
}
