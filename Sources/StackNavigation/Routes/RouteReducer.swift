/// Identifies the effects of one route of one routes array, for cancellation.
struct RouteEffectID: NavigationEffectID {
  let routes: StackIdentity
  let id: AnyHashableSendable
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
