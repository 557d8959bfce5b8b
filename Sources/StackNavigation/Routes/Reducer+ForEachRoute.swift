import IdentifiedCollections

extension Reducer {
  /// Integrates a coordinator's routes: runs `screenReducer` on the screen of each route for the
  /// ``RouterAction/routeAction(_:action:)`` actions at `toRouterAction`, and sets the routes
  /// for ``RouterAction/updateRoutes(_:)``, as TCACoordinators' `forEachRoute` does.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEachRoute(\.routes, action: \.router) { Screen() }
  /// ```
  ///
  /// * `routeAction(index, action:)` runs the screen's reducer, then this reducer. An action for
  ///   an index the routes do not have is reported as an issue (a failure in tests), as
  ///   `forEach` reports an action for a missing element; this reducer still runs.
  /// * `updateRoutes(routes)` sets the routes, then runs this reducer.
  ///
  /// With `cancelEffectsOnDismiss` (the default), the effects of a screen are cancelled when its
  /// route leaves the routes during an action this operator sees: an index at or above the new
  /// count. A screen's own `cancellable(id:)` IDs are scoped to its route, as they are to a
  /// stack element. A screen is identified by its index: a route replaced by another one at the
  /// same index (by `updateRoutes`, say) keeps the first one's effects running.
  ///
  /// `@Dependency(\.dismiss)` does not dismiss a screen of a coordinator (the coordinator
  /// decides its navigation): calling it from a screen's effect is reported as an issue.
  public func forEachRoute<ScreenState, ScreenAction, ScreenReducer: Reducer>(
    _ toRoutes: WritableKeyPath<State, [Route<ScreenState>]>,
    action toRouterAction: CaseKeyPath<Action, IndexedRouterAction<ScreenState, ScreenAction>>,
    cancelEffectsOnDismiss: Bool = true,
    @ReducerBuilder<ScreenState, ScreenAction> screenReducer: () -> ScreenReducer,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _RouteReducer<Self, ScreenReducer, Int>
  where ScreenReducer.State == ScreenState, ScreenReducer.Action == ScreenAction {
    _RouteReducer(
      base: self,
      routes: .indexed(toRoutes),
      toRouterAction: AnyCasePath(toRouterAction),
      screenReducer: screenReducer(),
      cancelEffectsOnDismiss: cancelEffectsOnDismiss,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Integrates a coordinator's routes of an enum of screens, `@Reducer enum Screen`: the screen
  /// reducer is the enum's own body.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEachRoute(\.routes, action: \.router)
  /// ```
  public func forEachRoute<ScreenState: CaseReducerState, ScreenAction>(
    _ toRoutes: WritableKeyPath<State, [Route<ScreenState>]>,
    action toRouterAction: CaseKeyPath<Action, IndexedRouterAction<ScreenState, ScreenAction>>,
    cancelEffectsOnDismiss: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _RouteReducer<Self, ScreenState.StateReducer.Body, Int>
  where ScreenState.StateReducer.Action == ScreenAction {
    forEachRoute(
      toRoutes, action: toRouterAction, cancelEffectsOnDismiss: cancelEffectsOnDismiss,
      screenReducer: { ScreenState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Integrates a coordinator's routes kept in an identified array: screens are identified by
  /// their IDs rather than their indices.
  ///
  /// As the indexed `forEachRoute` otherwise; a screen's effects are cancelled when no route has
  /// its ID any more, and `updateRoutes` with two screens of one ID is reported and keeps the
  /// first.
  public func forEachRoute<ScreenState: Identifiable, ScreenAction, ScreenReducer: Reducer>(
    _ toRoutes: WritableKeyPath<State, IdentifiedArrayOf<Route<ScreenState>>>,
    action toRouterAction: CaseKeyPath<Action, IdentifiedRouterAction<ScreenState, ScreenAction>>,
    cancelEffectsOnDismiss: Bool = true,
    @ReducerBuilder<ScreenState, ScreenAction> screenReducer: () -> ScreenReducer,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _RouteReducer<Self, ScreenReducer, ScreenState.ID>
  where ScreenReducer.State == ScreenState, ScreenReducer.Action == ScreenAction {
    _RouteReducer(
      base: self,
      routes: .identified(toRoutes),
      toRouterAction: AnyCasePath(toRouterAction),
      screenReducer: screenReducer(),
      cancelEffectsOnDismiss: cancelEffectsOnDismiss,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Integrates a coordinator's identified routes of an enum of screens: the screen reducer is
  /// the enum's own body.
  public func forEachRoute<ScreenState: CaseReducerState & Identifiable, ScreenAction>(
    _ toRoutes: WritableKeyPath<State, IdentifiedArrayOf<Route<ScreenState>>>,
    action toRouterAction: CaseKeyPath<Action, IdentifiedRouterAction<ScreenState, ScreenAction>>,
    cancelEffectsOnDismiss: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _RouteReducer<Self, ScreenState.StateReducer.Body, ScreenState.ID>
  where ScreenState.StateReducer.Action == ScreenAction {
    forEachRoute(
      toRoutes, action: toRouterAction, cancelEffectsOnDismiss: cancelEffectsOnDismiss,
      screenReducer: { ScreenState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
