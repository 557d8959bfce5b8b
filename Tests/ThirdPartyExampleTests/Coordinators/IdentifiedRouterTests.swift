// TCACoordinators' own tests, unchanged but for the imports.
import StackNavigation
import XCTest

final class IdentifiedRouterTests: XCTestCase {
  @MainActor
  func testActionPropagation() async {
    let scheduler = DispatchQueue.test
    let store = TestStore(
      initialState: Parent.State(routes: [
        .root(.init(id: "first", count: 42)),
        .sheet(.init(id: "second", count: 11)),
      ])
    ) {
      Parent(scheduler: scheduler)
    }

    await store.send(\.router[id: "first"].increment) {
      $0.routes[id: "first"]?.screen.count += 1
    }

    await store.send(\.router[id: "second"].increment) {
      $0.routes[id: "second"]?.screen.count += 1
    }
  }

  @MainActor
  func testActionCancellation() async {
    let scheduler = DispatchQueue.test
    let store = TestStore(
      initialState: Parent.State(
        routes: [
          .root(.init(id: "first", count: 42)),
          .sheet(.init(id: "second", count: 11)),
        ]
      )
    ) {
      Parent(scheduler: scheduler)
    }

    // Expect increment action after 1 second.
    await store.send(\.router[id: "second"].incrementLaterTapped)
    await scheduler.advance(by: .seconds(1))
    await store.receive(\.router[id: "second"].increment) {
      $0.routes[id: "second"]?.screen.count += 1
    }
    // Expect increment action to be cancelled if screen is removed.
    await store.send(\.router[id: "second"].incrementLaterTapped)
    await store.send(\.router.updateRoutes, [.root(.init(id: "first", count: 42))]) {
      $0.routes = [.root(.init(id: "first", count: 42))]
    }
  }
}

@Reducer
private struct Child {
  let scheduler: TestSchedulerOf<DispatchQueue>
  struct State: Equatable, Identifiable {
    var id: String
    var count = 0
  }

  enum Action {
    case incrementLaterTapped
    case increment
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .incrementLaterTapped:
        return .run { send in
          try await scheduler.sleep(for: .seconds(1))
          await send(.increment)
        }
      }
    }
  }
}

@Reducer
private struct Parent {
  let scheduler: TestSchedulerOf<DispatchQueue>
  struct State: Equatable {
    var routes: IdentifiedArrayOf<Route<Child.State>>
  }

  enum Action {
    case router(IdentifiedRouterActionOf<Child>)
    case goBackToRoot
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .goBackToRoot:
        state.routes.goBackToRoot()
        return .none
      default:
        return .none
      }
    }
    .forEachRoute(\.routes, action: \.router) {
      Child(scheduler: scheduler)
    }
  }
}
