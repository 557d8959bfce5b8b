extension Reducer {
  /// Runs `reducer` after this one whenever the value it reads from the state has changed:
  ///
  /// ```swift
  /// .onChange(of: \.syncUp) { oldValue, newValue in
  ///   Reduce { state, action in .send(.delegate(.syncUpUpdated(newValue))) }
  /// }
  /// ```
  public func onChange<Value: Equatable, Reducers: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value) ->
      Reducers
  ) -> _OnChangeReducer<Self, Value, Reducers> {
    _OnChangeReducer(base: self, toValue: toValue, isDuplicate: ==, reducer: reducer)
  }

  /// Runs `reducer` after this one whenever the value it reads from the state has changed, as
  /// `isDuplicate` tells.
  public func onChange<Value, Reducers: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    removeDuplicates isDuplicate: @escaping (Value, Value) -> Bool,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value) ->
      Reducers
  ) -> _OnChangeReducer<Self, Value, Reducers> {
    _OnChangeReducer(base: self, toValue: toValue, isDuplicate: isDuplicate, reducer: reducer)
  }
}

/// The reducer ``Reducer/onChange(of:_:)`` builds.
public struct _OnChangeReducer<Base: Reducer, Value, Reducers: Reducer>: Reducer
where Base.State == Reducers.State, Base.Action == Reducers.Action {
  let base: Base
  let toValue: (Base.State) -> Value
  let isDuplicate: (Value, Value) -> Bool
  let reducer: (Value, Value) -> Reducers

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let effects = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    if isDuplicate(oldValue, newValue) { return effects }
    return effects.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
