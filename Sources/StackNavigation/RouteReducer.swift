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

/// Identifies the effects of one route of one routes array, for cancellation.
struct RouteEffectID: Hashable, Sendable {
  let routes: StackIdentity
  let id: AnyHashableSendable
}

/// How a ``_RouteReducer`` reads and changes the routes of a state, whether they are kept in an
/// array (identified by index) or in an identified array (identified by the screens' IDs).
struct RouteAccess<State, Screen, ID: Hashable> {
  let identity: StackIdentity
  /// The routes' IDs, bottom first.
  let ids: (State) -> [ID]
  /// Runs `body` on the screen of the route with the given ID; `false` when there is none.
  let modifyScreen: (inout State, ID, (inout Screen) -> Void) -> Bool
  /// Sets the routes; returns a problem to report, if any.
  let setRoutes: (inout State, [Route<Screen>]) -> String?

  static func indexed(_ keyPath: WritableKeyPath<State, [Route<Screen>]>) -> Self
  where ID == Int {
    RouteAccess(
      identity: StackIdentity(keyPath: keyPath),
      ids: { Array($0[keyPath: keyPath].indices) },
      modifyScreen: { state, index, body in
        guard state[keyPath: keyPath].indices.contains(index) else { return false }
        body(&state[keyPath: keyPath][index].screen)
        return true
      },
      setRoutes: { state, routes in
        state[keyPath: keyPath] = routes
        return nil
      }
    )
  }

  static func identified(
    _ keyPath: WritableKeyPath<State, IdentifiedArrayOf<Route<Screen>>>
  ) -> Self where Screen: Identifiable, ID == Screen.ID {
    RouteAccess(
      identity: StackIdentity(keyPath: keyPath),
      ids: { Array($0[keyPath: keyPath].ids) },
      modifyScreen: { state, id, body in
        guard let index = state[keyPath: keyPath].index(id: id) else { return false }
        var route = state[keyPath: keyPath][index]
        body(&route.screen)
        guard route.id == id else {
          reportFailure(
            """
            A screen's reducer changed the screen's ID from \(String(customDumping: id)) to \
            \(String(customDumping: route.id)); routes kept in an identified array are \
            identified by it, so the change was not kept.
            """)
          return true
        }
        state[keyPath: keyPath][index] = route
        return true
      },
      setRoutes: { state, routes in
        let unique = IdentifiedArrayOf<Route<Screen>>(
          routes, uniquingIDsWith: { first, _ in first })
        state[keyPath: keyPath] = unique
        guard unique.count != routes.count else { return nil }
        return """
          "updateRoutes" received \(routes.count) routes of which only \(unique.count) have \
          distinct IDs; the first route of each ID was kept.
          """
      }
    )
  }
}

/// The reducer `forEachRoute` builds.
public struct _RouteReducer<Base: Reducer, ScreenReducer: Reducer, ID: Hashable>: Reducer {
  let base: Base
  let routes: RouteAccess<Base.State, ScreenReducer.State, ID>
  let toRouterAction:
    AnyCasePath<Base.Action, RouterAction<ID, ScreenReducer.State, ScreenReducer.Action>>
  let screenReducer: ScreenReducer
  let cancelEffectsOnDismiss: Bool
  let location: SourceLocation

  init(
    base: Base,
    routes: RouteAccess<Base.State, ScreenReducer.State, ID>,
    toRouterAction: AnyCasePath<
      Base.Action, RouterAction<ID, ScreenReducer.State, ScreenReducer.Action>
    >,
    screenReducer: ScreenReducer,
    cancelEffectsOnDismiss: Bool,
    location: SourceLocation
  ) {
    self.base = base
    self.routes = routes
    self.toRouterAction = toRouterAction
    self.screenReducer = screenReducer
    self.cancelEffectsOnDismiss = cancelEffectsOnDismiss
    self.location = location
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let idsBefore = routes.ids(state)
    var screenEffects: Effect<Base.Action> = .none

    switch toRouterAction.extract(from: action) {
    case let .routeAction(id, screenAction)?:
      var effect: Effect<ScreenReducer.Action> = .none
      let found = withDependencies {
        $0.navigationIDPath.elements.append(AnyHashableSendable(effectID(id)))
      } operation: {
        routes.modifyScreen(&state, id) { screen in
          effect = screenReducer.reduce(into: &screen, action: screenAction)
        }
      }
      if found {
        screenEffects = self.screenEffects(effect, id: id)
      } else {
        report(
          """
          A "forEachRoute" at "\(location.fileID):\(location.line)" received an action for a \
          missing route.

            Route:
              \(id)
            Action:
              \(debugCaseOutput(screenAction))
            Routes:
              \(idsBefore)

          This is generally considered an application logic error, and can happen for a few \
          reasons:

          An effect of a screen that left the routes sent it. Effects are cancelled when their \
          screen leaves the routes, unless "cancelEffectsOnDismiss" is false.

          This action was sent to the store while its routes had no route with this ID.
          """)
      }

    case let .updateRoutes(newRoutes)?:
      if let problem = routes.setRoutes(&state, newRoutes) { report(problem) }

    case nil:
      break
    }

    let effects = screenEffects.merge(with: base.reduce(into: &state, action: action))
    guard cancelEffectsOnDismiss else { return effects }
    let kept = Set(routes.ids(state))
    let gone = idsBefore.filter { !kept.contains($0) }
    guard !gone.isEmpty else { return effects }
    // Last, so that work this action started for a screen it removed is cancelled too.
    return effects.merge(with: .merge(gone.map { .cancel(id: effectID($0)) }))
  }

  func effectID(_ id: ID) -> RouteEffectID {
    RouteEffectID(routes: routes.identity, id: AnyHashableSendable(UncheckedSendable(id)))
  }

  /// The screen's effects as the coordinator's: cancellable with the route, and with a
  /// `dismiss` that reports it cannot dismiss a screen of a coordinator.
  func screenEffects(
    _ effect: Effect<ScreenReducer.Action>,
    id: ID
  ) -> Effect<Base.Action> {
    let toRouterAction = self.toRouterAction
    let routeID = UncheckedSendable(id)
    let location = self.location
    let mapped =
      effect
      .map { toRouterAction.embed(.routeAction(routeID.value, action: $0)) }
      .wrapRuns { send, operation in
        let handler = DismissHandler {
          reportFailure(
            """
            'dismiss' was called from the effect of a screen of a coordinator's routes (the \
            "forEachRoute" at "\(location.fileID):\(location.line)"). A coordinator decides its \
            navigation: send an action the coordinator handles with, e.g., \
            "state.routes.goBack()".
            """,
            fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column)
        }
        await DismissHandler.$current.withValue(handler) {
          await operation()
        }
      }
    return cancelEffectsOnDismiss ? mapped.cancellable(id: effectID(id)) : mapped
  }

  func report(_ message: String) {
    reportFailure(
      message,
      fileID: location.fileID, filePath: location.filePath,
      line: location.line, column: location.column
    )
  }
}
