import StackNavigation
import XCTest

// TCACoordinators' example coordinators, through the flow its app offers: start, pick a number,
// push its detail, show its double in a sheet with its own navigation, go back to the list, to
// the root.
@MainActor
final class CoordinatorExampleTests: XCTestCase {
  func testIndexedCoordinatorsFlow() async {
    let store = TestStore(initialState: IndexedCoordinator.State.initialState) {
      IndexedCoordinator()
    }
    store.exhaustivity = .off
    XCTAssertEqual(store.state.routes.first?.withNavigation, true)

    await store.send(\.router[id: 0].home.startTapped)
    var routes = store.state.routes
    XCTAssertEqual(routes.count, 2)
    XCTAssertEqual(routes[1].style, .sheet(withNavigation: true))
    XCTAssertEqual(routes[1].screen.numbersList?.numbers, [0, 1, 2, 3])

    await store.send(\.router[id: 1].numbersList.numberSelected, 3)
    await store.send(\.router[id: 2].numberDetail.incrementTapped)
    await store.send(\.router[id: 2].numberDetail.showDouble, 4)
    routes = store.state.routes
    XCTAssertEqual(routes.map(\.style), [
      .sheet(withNavigation: true), .sheet(withNavigation: true), .push,
      .sheet(embedInNavigationView: true),
    ])
    XCTAssertEqual(routes[2].screen.numberDetail?.number, 4)
    XCTAssertEqual(routes[3].screen.numberDetail?.number, 8)

    await store.send(\.router[id: 3].numberDetail.goBackToNumbersList)
    routes = store.state.routes
    XCTAssertEqual(routes.count, 2)
    XCTAssertNotNil(routes.last?.screen.numbersList)

    await store.send(\.router[id: 1].numbersList.numberSelected, 1)
    await store.send(\.router[id: 2].numberDetail.goBackToRootTapped)
    XCTAssertEqual(store.state.routes.count, 1)
  }

  func testIdentifiedCoordinatorsFlow() async {
    let store = TestStore(initialState: IdentifiedCoordinator.State.initialState) {
      IdentifiedCoordinator()
    }
    store.exhaustivity = .off
    let home = store.state.routes[0].id

    await store.send(\.router[id: home].home.startTapped)
    var routes = store.state.routes
    XCTAssertEqual(routes.count, 2)
    XCTAssertEqual(routes[1].style, .sheet(withNavigation: true))
    let list = routes[1].id

    await store.send(\.router[id: list].numbersList.numberSelected, 2)
    routes = store.state.routes
    let detail = routes[2].id
    XCTAssertEqual(routes[2].screen.numberDetail?.number, 2)

    await store.send(\.router[id: detail].numberDetail.showDouble, 2)
    routes = store.state.routes
    XCTAssertEqual(routes.count, 4)
    XCTAssertEqual(routes[3].screen.numberDetail?.number, 4)
    XCTAssertEqual(routes[3].withNavigation, true)

    await store.send(\.router[id: routes[3].id].numberDetail.goBackTapped)
    XCTAssertEqual(store.state.routes.count, 3)
    await store.send(\.router[id: detail].numberDetail.goBackToRootTapped)
    XCTAssertEqual(store.state.routes.map(\.id), [home])
  }

  func testANumberDetailIncrementsAfterADelayOnTheMainQueue() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: NumberDetail.State(number: 5)) {
      NumberDetail()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(.incrementAfterDelayTapped)
    await mainQueue.advance(by: .seconds(3))
    await store.receive(\.incrementTapped) { $0.number = 6 }
  }

  func testAFeatureWithoutABodyChangesNothing() async {
    var state = Home.State()
    let before = state
    let effect = Home().reduce(into: &state, action: .startTapped)
    XCTAssertEqual(state, before)
    let store = TestStore(initialState: Home.State()) { Home() }
    await store.send(.startTapped)
    _ = effect
  }
}
