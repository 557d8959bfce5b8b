extension Reducer {
  /// Runs a presented child's reducer while it is presented, before this reducer:
  /// `.ifLet(\.$destination, action: \.destination) { Destination() }`.
  ///
  /// * `.presented(action)` runs the child; `.dismiss` (sent by the parent, or by the child's
  ///   `@Dependency(\.dismiss)`) runs this reducer, then sets the state to `nil`.
  /// * The child's effects are cancelled when it is dismissed or replaced by another child
  ///   (another enum case or `Identifiable` ID), whoever changed the state.
  /// * An alert or a dialog is dismissed by the first action sent from it.
  /// * An action for a child while nothing is presented is reported.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _PresentationReducer(
      base: self, toPresentationState: toPresentationState,
      toPresentationAction: AnyCasePath(toPresentationAction), destination: destination(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Presents an alert or a dialog, dismissed by the first action sent from it:
  /// `.ifLet(\.$alert, action: \.alert)`.
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    ifLet(
      toPresentationState, action: toPresentationAction, destination: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Presents the features of a `@Reducer enum Destination`, whose body runs the case
  /// presented: `.ifLet(\.$destination, action: \.destination)`.
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, DestinationState.StateReducer.Body>
  where DestinationState.StateReducer.Action == DestinationAction {
    ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)`` builds.
public struct _PresentationReducer<Base: Reducer, Destination: Reducer>: Reducer {
  let base: Base
  let toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>
  let toPresentationAction: AnyCasePath<Base.Action, PresentationAction<Destination.Action>>
  let destination: Destination
  let location: SourceLocation

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let toPresentationState = self.toPresentationState
    let initial = state[keyPath: toPresentationState]
    let identityBefore = initial.wrappedValue.map { identity(of: $0) }
    let destinationEffects: Effect<Base.Action>
    let baseEffects: Effect<Base.Action>
    // The child presented once this reducer is done, found once: it names the effects to cancel.
    var now: ChildIdentity?

    switch (initial.wrappedValue, toPresentationAction.extract(from: action)) {
    case (.some, .dismiss?):
      destinationEffects = .none
      baseEffects = base.reduce(into: &state, action: action)
      now = identityOfPresented(in: state)
      if now == identityBefore {
        state[keyPath: toPresentationState].wrappedValue = nil
        now = nil
      }

    case let (.some(presented), .presented(destinationAction)?):
      let identity = identityBefore ?? identity(of: presented)
      let effect = withDependencies {
        $0.navigationIDPath.elements.append(AnyHashableSendable(identity))
        $0.isPresented = true
      } operation: {
        destination.reduce(
          into: &state[keyPath: toPresentationState].wrappedValue!, action: destinationAction)
      }
      destinationEffects = presentedEffects(effect, identity: identity)
      baseEffects = base.reduce(into: &state, action: action)
      now = identityOfPresented(in: state)
      // An alert is gone once one of its buttons was tapped, not on another case's action.
      if now == identity, let ephemeral = ephemeralType(of: presented),
        ephemeral.canSend(destinationAction)
      {
        state[keyPath: toPresentationState].wrappedValue = nil
        now = nil
      }

    case (.none, .some):
      reportFailure(
        """
        An "ifLet" at "\(location.fileID):\(location.line)" received a presentation action when \
        destination state was absent.

          Action:
            \(debugCaseOutput(action))

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer set destination state to "nil" before this reducer ran. This reducer \
        must run before any other reducer sets destination state to "nil". This ensures that \
        destination reducers can handle their actions while their state is still present.

        This action was sent to the store while destination state was "nil". Make sure that \
        actions for this reducer can only be sent from a store when state is present, or from \
        effects that start from this reducer.
        """,
        fileID: location.fileID, filePath: location.filePath, line: location.line,
        column: location.column)
      destinationEffects = .none
      baseEffects = base.reduce(into: &state, action: action)
      now = identityOfPresented(in: state)

    case (_, nil):
      destinationEffects = .none
      baseEffects = base.reduce(into: &state, action: action)
      now = identityOfPresented(in: state)
    }

    // The child this reducer saw last (it may have been replaced by another reducer since) and
    // the child presented now: when they differ, the old one's effects end.
    let seen = initial.presentedIdentity ?? identityBefore
    if state[keyPath: toPresentationState].presentedIdentity != now {
      state[keyPath: toPresentationState].presentedIdentity = now
    }
    let all = destinationEffects.merge(with: baseEffects)
    guard let seen, seen != now else { return all }
    return all.merge(with: .cancel(id: seen))
  }

  func identity(of presented: Destination.State) -> ChildIdentity {
    ChildIdentity(presented, at: toPresentationState)
  }

  func identityOfPresented(in state: Base.State) -> ChildIdentity? {
    state[keyPath: toPresentationState].wrappedValue.map { identity(of: $0) }
  }

  /// The child's effects as the parent's: cancellable with the child, and with a `dismiss`
  /// that sends `.dismiss`.
  func presentedEffects(
    _ effect: Effect<Destination.Action>,
    identity: ChildIdentity
  ) -> Effect<Base.Action> {
    let toPresentationAction = self.toPresentationAction
    return
      effect
      .map { toPresentationAction.embed(.presented($0)) }
      .wrapRuns { send, operation in
        let handler = DismissHandler { await send(toPresentationAction.embed(.dismiss)) }
        await DismissHandler.$current.withValue(handler) {
          await operation()
        }
      }
      .cancellable(id: identity)
  }
}

extension DependencyValues {
  /// Whether the feature reading it runs as a presented child (inside `ifLet(\.$destination, …)`
  /// or a stack element), so it can tell whether `@Dependency(\.dismiss)` has anything to do.
  public var isPresented: Bool {
    get { self[IsPresentedKey.self] }
    set { self[IsPresentedKey.self] = newValue }
  }
}

private enum IsPresentedKey: DependencyKey {
  static let liveValue = false
  static let testValue = false
}
