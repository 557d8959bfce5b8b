import IdentifiedCollections

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
