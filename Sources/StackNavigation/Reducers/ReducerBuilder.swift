/// Builds a reducer from a list of reducers that run one after the other.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  public static func buildExpression<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action {
    reducer
  }

  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  public static func buildPartialBlock<R: Reducer>(first: R) -> R
  where R.State == State, R.Action == Action {
    first
  }

  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
    accumulated: R0,
    next: R1
  ) -> _SequenceReducer<R0, R1> {
    _SequenceReducer(first: accumulated, second: next)
  }

  public static func buildOptional<R: Reducer>(_ reducer: R?) -> _OptionalReducer<R>
  where R.State == State, R.Action == Action {
    _OptionalReducer(wrapped: reducer)
  }

  public static func buildEither<First: Reducer, Second: Reducer>(
    first reducer: First
  ) -> _EitherReducer<First, Second> {
    .first(reducer)
  }

  public static func buildEither<First: Reducer, Second: Reducer>(
    second reducer: Second
  ) -> _EitherReducer<First, Second> {
    .second(reducer)
  }

  public static func buildFinalResult<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action {
    reducer
  }
}

/// Two reducers run one after the other; their effects are merged.
public struct _SequenceReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  let first: First
  let second: Second

  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    let firstEffect = first.reduce(into: &state, action: action)
    return firstEffect.merge(with: second.reduce(into: &state, action: action))
  }
}

/// A reducer that may be absent.
public struct _OptionalReducer<Wrapped: Reducer>: Reducer {
  let wrapped: Wrapped?

  public func reduce(
    into state: inout Wrapped.State,
    action: Wrapped.Action
  ) -> Effect<Wrapped.Action> {
    wrapped?.reduce(into: &state, action: action) ?? .none
  }
}

/// One of two reducers.
public enum _EitherReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  case first(First)
  case second(Second)

  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case let .first(reducer): return reducer.reduce(into: &state, action: action)
    case let .second(reducer): return reducer.reduce(into: &state, action: action)
    }
  }
}
