/// A reducer over an enum of features: what `@Reducer enum Path { case counter(CounterFeature) }`
/// generates.
///
/// Its `State` and `Action` have a case per feature, its static ``body`` runs each case's
/// feature, and ``scope(_:state:)`` turns a store of the whole enum into a store of the case it
/// is in, for an exhaustive `switch`.
public protocol CaseReducer<State, Action>: Reducer
where State: CaseReducerState, Body: Reducer, Body.State == State, Body.Action == Action {
  /// An enum with a case per feature, each holding a store of that feature.
  associatedtype CaseScope

  /// The reducer that runs each case's feature.
  @ReducerBuilder<State, Action>
  static var body: Body { get }

  /// The store of the case `state` is in.
  static func scope(_ store: ScopedStore<State, Action>, state: State) -> CaseScope
}

extension CaseReducer {
  /// The enum's static body.
  public var body: Body { Self.body }
}

/// The state of a ``CaseReducer``: knows its reducer, so `forEach` can omit its destination.
public protocol CaseReducerState {
  /// The enum reducer this is the state of.
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}

extension CasePathable where Self: CaseReducerState {
  /// Reads a case of an enum reducer's state, and changes what it holds in place while it is
  /// that case: `state.path[id: id]?.detail?.syncUp.title = "Design"`, as the Composable
  /// Architecture's features write it. Setting `nil`, or a case the state is not, changes
  /// nothing.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Self.AllCasePaths, AnyCasePath<Self, Value>>
  ) -> Value? {
    get { Self.allCasePaths[keyPath: keyPath].extract(from: self) }
    set {
      let casePath = Self.allCasePaths[keyPath: keyPath]
      guard let newValue, casePath.extract(from: self) != nil else { return }
      self = casePath.embed(newValue)
    }
  }
}

extension Reducer {
  /// Integrates a navigation stack of an enum of features, `@Reducer enum Path`: the
  /// destination is the enum's own body.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path)
  /// ```
  public func forEach<ElementState: CaseReducerState, ElementAction>(
    _ toStackState: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, ElementState.StateReducer.Body>
  where ElementState.StateReducer.Action == ElementAction {
    forEach(
      toStackState, action: toStackAction,
      destination: { ElementState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension ScopedStore where State: CaseReducerState, State.StateReducer.Action == Action {
  /// The store of the case the state is in now, for a `switch` that must handle every case:
  ///
  /// ```swift
  /// switch await store.case {
  /// case let .counter(store): try await store.send(.incrementButtonTapped)
  /// case let .numberFact(store): …
  /// }
  /// ```
  ///
  /// `nil` when the element is gone.
  public var `case`: State.StateReducer.CaseScope? {
    get async {
      guard let state = await state else { return nil }
      return State.StateReducer.scope(self, state: state)
    }
  }
}

extension ScopedStore {
  /// A store of one case of this store's enum state.
  ///
  /// Its state is `nil` while the enum is in another case; sending then throws
  /// ``ScopedStoreError``.
  public func scope<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> ScopedStore<ChildState, ChildAction> where State: CasePathable, Action: CasePathable {
    let toChildState = AnyCasePath(toChildState)
    let toChildAction = AnyCasePath(toChildAction)
    let parent = self
    return ScopedStore<ChildState, ChildAction>(
      readState: { await parent.readState().flatMap(toChildState.extract(from:)) },
      sendAction: { action in
        guard await parent.readState().flatMap(toChildState.extract(from:)) != nil else {
          throw ScopedStoreError(part: "case \(ChildState.self)")
        }
        return try await parent.sendAction(toChildAction.embed(action))
      }
    )
  }
}

extension Store {
  /// A store focused on the element with the given ID of a stack, whatever its case.
  ///
  /// With an enum of features, ``ScopedStore/case`` gives the store of the element's case.
  public nonisolated func scope<ElementState, ElementAction>(
    _ toStack: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>,
    id: StackElementID
  ) -> ScopedStore<ElementState, ElementAction> {
    let toStack = UncheckedSendable(toStack)
    let toStackAction = AnyCasePath(toStackAction)
    return ScopedStore(
      readState: { [self] in await self.state[keyPath: toStack.value][id: id] },
      sendAction: { [self] action in
        try await self.sendIfPresent(
          toStackAction.embed(.element(id: id, action: action)),
          present: { $0[keyPath: toStack.value][id: id] != nil },
          part: "element \(id) of the stack"
        )
      }
    )
  }
}
