/// A feature's logic: how an action changes the state, and what work follows.
///
/// Implement either ``body-swift.property`` (composing other reducers) or
/// ``reduce(into:action:)``:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable, Codable { var count = 0 }
///   @CasePathable enum Action: Equatable, Codable { case incrementButtonTapped }
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
public protocol Reducer<State, Action> {
  /// The state the reducer changes.
  associatedtype State
  /// The actions the reducer handles.
  associatedtype Action
  /// The reducer this reducer is made of, or `Never` when it implements `reduce(into:action:)`.
  associatedtype Body

  /// Changes the state for an action and returns the work that follows.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this reducer is made of.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

/// A reducer of a feature's domain: `some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  /// A reducer that implements `reduce(into:action:)` has no body.
  public var body: Body {
    fatalError("'\(Self.self)' implements 'reduce(into:action:)' and has no body.")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs the reducer's body.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

/// A reducer made of a closure.
public struct Reduce<State, Action>: Reducer {
  let reduce: (inout State, Action) -> Effect<Action>

  /// Creates a reducer from a closure that changes the state and returns an effect.
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Creates a reducer that runs another reducer.
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.reduce = reducer.reduce(into:action:)
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}

/// A reducer that does nothing.
public struct EmptyReducer<State, Action>: Reducer {
  /// Creates a reducer that does nothing.
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// Runs the reducers of its body one after the other, like the body of a feature.
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  let reducers: Reducers

  /// Combines the reducers the builder lists.
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
