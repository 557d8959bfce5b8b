import IdentifiedCollections

/// An action of a coordinator's routes: an action of one screen, or the whole routes array set
/// anew, as TCACoordinators' router action.
///
/// Hold it in the coordinator's action and integrate the routes with
/// `forEachRoute(_:action:cancelEffectsOnDismiss:)`:
///
/// ```swift
/// enum Action {
///   case router(IndexedRouterActionOf<Screen>)
/// }
/// …
/// case .router(.routeAction(_, .numbersList(.numberSelected(let number)))):
///   state.routes.push(.numberDetail(.init(number: number)))
/// ```
///
/// `ID` is the route's index for routes kept in an array (``IndexedRouterAction``), and the
/// screen's ID for routes kept in an identified array (``IdentifiedRouterAction``).
public enum RouterAction<ID: Hashable, Screen, ScreenAction> {
  /// An action of the screen of the route with the given ID.
  case routeAction(_ id: ID, action: ScreenAction)

  /// Sets the routes anew, as a view system does when the user goes back or swipes a sheet
  /// away, and as `Effect.routeWithDelaysIfUnsupported(_:action:_:)` does.
  case updateRoutes(_ routes: [Route<Screen>])
}

/// The router action of routes kept in an array: screens are identified by their index.
public typealias IndexedRouterAction<Screen, ScreenAction> = RouterAction<Int, Screen, ScreenAction>

/// The router action of a screen reducer's domain: `IndexedRouterActionOf<Screen>`.
public typealias IndexedRouterActionOf<R: Reducer> = RouterAction<Int, R.State, R.Action>

/// The router action of routes kept in an identified array: screens are identified by their ID.
public typealias IdentifiedRouterAction<Screen: Identifiable, ScreenAction> =
  RouterAction<Screen.ID, Screen, ScreenAction>

/// The identified router action of a screen reducer's domain: `IdentifiedRouterActionOf<Screen>`.
public typealias IdentifiedRouterActionOf<R: Reducer> = RouterAction<R.State.ID, R.State, R.Action>
where R.State: Identifiable

extension RouterAction: Equatable where Screen: Equatable, ScreenAction: Equatable {}
extension RouterAction: Hashable where Screen: Hashable, ScreenAction: Hashable {}
extension RouterAction: Sendable where ID: Sendable, Screen: Sendable, ScreenAction: Sendable {}
extension RouterAction: Encodable
where ID: Encodable, Screen: Encodable, ScreenAction: Encodable {
  /// Encodes the action as a synthesized encoding does (the synthesized `Decodable` reads it):
  /// `{"routeAction": {"_0": 2, "action": …}}`, `{"updateRoutes": {"_0": […]}}`.
  ///
  /// Written by hand with keys declared outside the generic type, as ``StackAction``'s is: a
  /// synthesized encoding looked up its keys' generic metadata on every action.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: RouterActionCodingKeys.self)
    switch self {
    case let .routeAction(id, action):
      var values = container.nestedContainer(
        keyedBy: RouterActionRouteActionCodingKeys.self, forKey: .routeAction)
      try values.encode(id, forKey: ._0)
      try values.encode(action, forKey: .action)
    case let .updateRoutes(routes):
      var values = container.nestedContainer(
        keyedBy: RouterActionUpdateRoutesCodingKeys.self, forKey: .updateRoutes)
      try values.encode(routes, forKey: ._0)
    }
  }
}

/// The keys of ``RouterAction``'s encoding: its cases, and each case's values.
enum RouterActionCodingKeys: String, CodingKey {
  case routeAction, updateRoutes
}

enum RouterActionRouteActionCodingKeys: String, CodingKey {
  case _0, action
}

enum RouterActionUpdateRoutesCodingKeys: String, CodingKey {
  case _0
}
extension RouterAction: Decodable
where ID: Decodable, Screen: Decodable, ScreenAction: Decodable {}

extension RouterAction: CasePathable {
  /// The case paths of a router action, including `[id:]` to reach into one screen.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of ``RouterAction``: `routeAction`, `updateRoutes` and `[id:]`.
  public struct AllCasePaths: CasePathReflectable, Sendable {
    /// The case path of a given action.
    public subscript(root: RouterAction) -> PartialCaseKeyPath<RouterAction> {
      switch root {
      case .routeAction: return \.routeAction
      case .updateRoutes: return \.updateRoutes
      }
    }

    /// The `routeAction(_:action:)` case.
    public var routeAction: AnyCasePath<RouterAction, (id: ID, action: ScreenAction)> {
      AnyCasePath(
        embed: { .routeAction($0.id, action: $0.action) },
        extract: {
          guard case let .routeAction(id, action) = $0 else { return nil }
          return (id, action)
        }
      )
    }

    /// The `updateRoutes(_:)` case.
    public var updateRoutes: AnyCasePath<RouterAction, [Route<Screen>]> {
      AnyCasePath(
        embed: { .updateRoutes($0) },
        extract: {
          guard case let .updateRoutes(routes) = $0 else { return nil }
          return routes
        }
      )
    }

    /// The action of the screen with the given ID: `\.router[id: 2].numberDetail.goBackTapped`.
    public subscript(id id: ID) -> AnyCasePath<RouterAction, ScreenAction> {
      let id = UncheckedSendable(id)
      return AnyCasePath(
        embed: { .routeAction(id.value, action: $0) },
        extract: {
          guard case let .routeAction(routeID, action) = $0, routeID == id.value else {
            return nil
          }
          return action
        }
      )
    }
  }
}

extension Case {
  /// A case key path to the action of one screen of a coordinator's routes:
  /// `\.router[id: 2].numberDetail.goBackTapped`.
  public subscript<ID: Hashable, Screen, ScreenAction>(
    id id: ID
  ) -> Case<ScreenAction> where Value == RouterAction<ID, Screen, ScreenAction> {
    self[dynamicMember: \.[id: id]]
  }
}
