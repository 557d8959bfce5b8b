import IdentifiedCollections

extension Effect {
  /// Changes a coordinator's routes in one step: `transform` changes a copy of `routes`, and the
  /// effect sends `updateRoutes` with the result.
  ///
  /// ```swift
  /// return .routeWithDelaysIfUnsupported(state.routes, action: \.router) {
  ///   $0.goBackToRoot()
  /// }
  /// ```
  ///
  /// In TCACoordinators this splits a change SwiftUI cannot animate in one update (several
  /// pushes, presentations or dismissals) into steps sent with delays between them, waiting
  /// for the views. There is no view system here to wait for, so the whole change is applied
  /// at once, by a single `updateRoutes` action that the journal records like any other.
  public static func routeWithDelaysIfUnsupported<Screen, ScreenAction>(
    _ routes: [Route<Screen>],
    action toRouterAction: CaseKeyPath<Action, IndexedRouterAction<Screen, ScreenAction>>,
    _ transform: (inout [Route<Screen>]) -> Void
  ) -> Self {
    var changed = routes
    transform(&changed)
    return .send(toRouterAction(.updateRoutes(changed)))
  }

  /// Changes a coordinator's identified routes in one step: `transform` changes a copy of
  /// `routes`, and the effect sends `updateRoutes` with the result. As the indexed version,
  /// the whole change is applied at once: there is no view system to wait for.
  public static func routeWithDelaysIfUnsupported<Screen: Identifiable, ScreenAction>(
    _ routes: IdentifiedArrayOf<Route<Screen>>,
    action toRouterAction: CaseKeyPath<Action, IdentifiedRouterAction<Screen, ScreenAction>>,
    _ transform: (inout IdentifiedArrayOf<Route<Screen>>) -> Void
  ) -> Self {
    var changed = routes
    transform(&changed)
    return .send(toRouterAction(.updateRoutes(Array(changed))))
  }
}
