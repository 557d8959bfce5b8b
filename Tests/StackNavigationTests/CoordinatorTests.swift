// The coordinator of TCACoordinators' README, written as today's coordinator code is: an enum
// `@Reducer Screen`, `IndexedRouterActionOf<Screen>` and `forEachRoute`, tested with TestStore.
import Foundation
import StackJournalDemo
import StackJournalTestSupport
@testable import StackNavigation
import Testing

/// Gates a number fact: `fetch` waits until `open()`, and logs what happens to it.
final class FactGate: Sendable {
  let log = LockIsolated<[String]>([])
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(of: Void.self)
  }

  func open() { continuation.yield() }

  var client: NumberFactClient {
    NumberFactClient { [self] number in
      log.withValue { $0.append("started \(number)") }
      for await _ in stream { break }
      guard !Task.isCancelled else {
        log.withValue { $0.append("cancelled \(number)") }
        throw CancellationError()
      }
      log.withValue { $0.append("finished \(number)") }
      return "fact \(number)"
    }
  }

  /// Waits until the log holds `entry`, for up to 5 seconds.
  func waitFor(_ entry: String) async -> Bool {
    for _ in 0..<5_000 {
      if log.value.contains(entry) { return true }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return false
  }
}

private typealias Screen = Coordinator.Screen

private let root = Route<Screen.State>.root(.home(.init()), embedInNavigationView: true)
private let numbersSheet = Route<Screen.State>.sheet(
  .numbersList(.init()), embedInNavigationView: true)

@MainActor
@Suite struct CoordinatorTests {
  @Test func readmeFlowExhaustive() async {
    let store = TestStore(initialState: Coordinator.State()) { Coordinator() }
    await store.send(.router(.routeAction(0, action: .home(.startTapped)))) {
      $0.routes.append(.sheet(.numbersList(.init()), embedInNavigationView: true))
    }
    await store.send(\.router[id: 1].numbersList.numberSelected, 42) {
      $0.routes.append(.push(.numberDetail(.init(number: 42))))
    }
    await store.send(.router(.routeAction(2, action: .numberDetail(.incrementTapped)))) {
      $0.routes[2].screen = .numberDetail(.init(number: 43))
    }
    await store.send(.router(.routeAction(2, action: .numberDetail(.goBackTapped)))) {
      $0.routes.removeLast()
    }
    await store.send(\.router[id: 1].numbersList.numberSelected, 7) {
      $0.routes.append(.push(.numberDetail(.init(number: 7))))
    }
    await store.send(.router(.routeAction(2, action: .numberDetail(.showDouble(7))))) {
      $0.routes.append(.sheet(.numberDetail(.init(number: 14))))
    }
    // routeWithDelaysIfUnsupported applies the whole change at once, by one updateRoutes.
    await store.send(.router(.routeAction(3, action: .numberDetail(.goBackToNumbersList))))
    await store.receive(\.router.updateRoutes, [root, numbersSheet]) {
      $0.routes = [root, numbersSheet]
    }
    await store.send(\.router[id: 1].numbersList.numberSelected, 3) {
      $0.routes.append(.push(.numberDetail(.init(number: 3))))
    }
    await store.send(\.router[id: 2].numberDetail.goBackToRootTapped)
    await store.receive(\.router.updateRoutes) {
      $0.routes = [root]
    }
    await store.finish()
  }

  @Test func readmeFlowNonExhaustive() async {
    let store = TestStore(initialState: Coordinator.State()) { Coordinator() }
    store.exhaustivity = .off
    await store.send(.router(.routeAction(0, action: .home(.startTapped))))
    await store.send(.router(.routeAction(1, action: .numbersList(.numberSelected(42)))))
    await store.send(.router(.routeAction(2, action: .numberDetail(.incrementTapped)))) {
      $0.routes[2].screen = .numberDetail(.init(number: 43))
    }
    #expect(store.state.routes.count == 3)
    await store.send(.router(.routeAction(2, action: .numberDetail(.goBackToRootTapped))))
    await store.receive(\.router.updateRoutes) {
      $0.routes = [root]
    }
    #expect(store.state.routes == [root])
  }

  @Test func screenEffectCancelledWhenTheScreenIsDismissed() async {
    let gate = FactGate()
    let store = TestStore(initialState: Coordinator.State()) {
      Coordinator()
    } withDependencies: {
      $0.numberFact = gate.client
    }
    store.exhaustivity = .off
    await store.send(.router(.routeAction(0, action: .home(.startTapped))))
    await store.send(.router(.routeAction(1, action: .numbersList(.numberSelected(42)))))
    await store.send(.router(.routeAction(2, action: .numberDetail(.factButtonTapped))))
    #expect(await gate.waitFor("started 42"))
    store.exhaustivity = .on
    await store.send(.router(.routeAction(2, action: .numberDetail(.goBackTapped)))) {
      $0.routes = [root, numbersSheet]
    }
    #expect(await gate.waitFor("cancelled 42"))
    gate.open()
    // Exhaustive: no effect may still run and no action may arrive.
    await store.finish()
    #expect(!gate.log.value.contains("finished 42"))
  }

  @Test func screenEffectKeptWithoutCancelEffectsOnDismiss() async {
    let gate = FactGate()
    let store = TestStore(initialState: Coordinator.State()) {
      Coordinator(cancelEffectsOnDismiss: false)
    } withDependencies: {
      $0.numberFact = gate.client
    }
    await store.send(.router(.routeAction(0, action: .home(.startTapped)))) {
      $0.routes = [root, numbersSheet]
    }
    await store.send(.router(.routeAction(1, action: .numbersList(.numberSelected(42))))) {
      $0.routes.append(.push(.numberDetail(.init(number: 42))))
    }
    // The kept effect's action reaches a route that is gone: reported as forEach reports an
    // action for a missing element. The effect starts inside the known-issue scope, so what it
    // reports later belongs to it.
    await withKnownIssue {
      await store.send(.router(.routeAction(2, action: .numberDetail(.factButtonTapped))))
      #expect(await gate.waitFor("started 42"))
      await store.send(.router(.routeAction(2, action: .numberDetail(.goBackTapped)))) {
        $0.routes = [root, numbersSheet]
      }
      gate.open()
      await store.receive(\.router[id: 2].numberDetail.factResponse, "fact 42")
    } matching: { issue in
      issue.description.contains("received an action for a missing route")
    }
    #expect(gate.log.value == ["started 42", "finished 42"])
    #expect(store.state.routes == [root, numbersSheet])
    await store.finish()
  }

  @Test func actionForAMissingRouteIsReported() async {
    let store = TestStore(initialState: Coordinator.State()) { Coordinator() }
    let line = Coordinator.forEachRouteLine
    await withKnownIssue {
      await store.send(.router(.routeAction(5, action: .numberDetail(.goBackTapped))))
    } matching: { issue in
      issue.description.contains(
        """
        A "forEachRoute" at "StackJournalDemo/DemoCoordinator.swift:\(line)" received an \
        action for a missing route.

          Route:
            5
          Action:
            Coordinator.Screen.Action.numberDetail(.goBackTapped)
          Routes:
            [0]
        """)
    }
    #expect(store.state.routes == [root])
  }

  @Test func dismissFromAScreenIsReported() async {
    let store = TestStore(
      initialState: DismissingCoordinator.State(routes: [.root(.dismissing(.init()))])
    ) {
      DismissingCoordinator()
    }
    await withKnownIssue {
      await store.send(.router(.routeAction(0, action: .dismissing(.closeTapped))))
      await store.finish()
    } matching: { issue in
      issue.description.contains("'dismiss' was called from the effect of a screen of a")
    }
    #expect(store.state.routes.count == 1)
  }

  @Test func childCoordinatorPushedFromAParent() async {
    let gate = FactGate()
    let store = TestStore(initialState: ParentCoordinator.State()) {
      ParentCoordinator()
    } withDependencies: {
      $0.numberFact = gate.client
    }
    let home = Route<ParentCoordinator.Screen.State>.root(
      .home(.init()), embedInNavigationView: true)
    await store.send(.router(.routeAction(0, action: .home(.startFlowTapped)))) {
      $0.routes.append(.push(.numbersFlow(.init())))
    }
    func flow(_ detail: NumberDetail.State) -> Route<ParentCoordinator.Screen.State> {
      .push(
        .numbersFlow(.init(routes: [.root(.numbersList(.init())), .push(.numberDetail(detail))])))
    }
    await store.send(\.router[id: 1].numbersFlow.router[id: 0].numbersList.numberSelected, 7) {
      $0.routes[1] = flow(.init(number: 7))
    }
    await store.send(\.router[id: 1].numbersFlow.router[id: 1].numberDetail.incrementTapped) {
      $0.routes[1] = flow(.init(number: 8))
    }
    await store.send(\.router[id: 1].numbersFlow.router[id: 1].numberDetail.factButtonTapped)
    gate.open()
    await store.receive(\.router[id: 1].numbersFlow.router[id: 1].numberDetail.factResponse) {
      $0.routes[1] = flow(.init(number: 8, fact: "fact 8"))
    }
    // The child's own effect ends when the parent drops the child, as a user's swipe would.
    await store.send(\.router[id: 1].numbersFlow.router[id: 1].numberDetail.factButtonTapped)
    #expect(await gate.waitFor("started 8"))
    await store.send(.router(.updateRoutes([home]))) {
      $0.routes = [home]
    }
    #expect(await gate.waitFor("cancelled 8"))
    await store.finish()
  }
}

@MainActor
@Suite struct IdentifiedCoordinatorTests {
  private let root = Route<Screen.State>.root(.home(.init(id: 0)), embedInNavigationView: true)
  private let sheet = Route<Screen.State>.sheet(
    .numbersList(.init(id: 1)), embedInNavigationView: true)

  @Test func readmeFlowExhaustive() async {
    let store = TestStore(initialState: IdentifiedCoordinator.State()) {
      IdentifiedCoordinator()
    }
    await store.send(.router(.routeAction(0, action: .home(.startTapped)))) {
      $0.routes.append(self.sheet)
      $0.nextScreenID = 2
    }
    await store.send(\.router[id: 1].numbersList.numberSelected, 42) {
      $0.routes.append(.push(.numberDetail(.init(id: 2, number: 42))))
      $0.nextScreenID = 3
    }
    await store.send(\.router[id: 2].numberDetail.incrementTapped) {
      $0.routes[id: 2]?.screen = .numberDetail(.init(id: 2, number: 43))
    }
    await store.send(\.router[id: 2].numberDetail.goBackTapped) {
      $0.routes.remove(id: 2)
    }
    await store.send(\.router[id: 1].numbersList.numberSelected, 7) {
      $0.routes.append(.push(.numberDetail(.init(id: 3, number: 7))))
      $0.nextScreenID = 4
    }
    await store.send(\.router[id: 3].numberDetail.goBackToNumbersList)
    await store.receive(\.router.updateRoutes, [root, sheet]) {
      $0.routes = [self.root, self.sheet]
    }
    await store.send(\.router[id: 1].numbersList.numberSelected, 3) {
      $0.routes.append(.push(.numberDetail(.init(id: 4, number: 3))))
      $0.nextScreenID = 5
    }
    await store.send(\.router[id: 4].numberDetail.goBackToRootTapped)
    await store.receive(\.router.updateRoutes) {
      $0.routes = [self.root]
    }
    await store.finish()
  }

  @Test func readmeFlowNonExhaustive() async {
    let store = TestStore(initialState: IdentifiedCoordinator.State()) {
      IdentifiedCoordinator()
    }
    store.exhaustivity = .off
    await store.send(\.router[id: 0].home.startTapped)
    await store.send(\.router[id: 1].numbersList.numberSelected, 42)
    #expect(store.state.routes.ids == [0, 1, 2])
    await store.send(\.router[id: 2].numberDetail.goBackToNumbersList)
    await store.receive(\.router.updateRoutes)
    #expect(store.state.routes.ids == [0, 1])
  }

  @Test func screenEffectCancelledWhenTheScreenIsDismissed() async {
    let gate = FactGate()
    let store = TestStore(initialState: IdentifiedCoordinator.State()) {
      IdentifiedCoordinator()
    } withDependencies: {
      $0.numberFact = gate.client
    }
    store.exhaustivity = .off
    await store.send(\.router[id: 0].home.startTapped)
    await store.send(\.router[id: 1].numbersList.numberSelected, 42)
    await store.send(\.router[id: 2].numberDetail.factButtonTapped)
    #expect(await gate.waitFor("started 42"))
    store.exhaustivity = .on
    await store.send(\.router[id: 2].numberDetail.goBackTapped) {
      $0.routes.remove(id: 2)
    }
    #expect(await gate.waitFor("cancelled 42"))
    gate.open()
    await store.finish()
  }

  @Test func screenEffectKeptWithoutCancelEffectsOnDismiss() async {
    let gate = FactGate()
    let store = TestStore(initialState: IdentifiedCoordinator.State()) {
      IdentifiedCoordinator(cancelEffectsOnDismiss: false)
    } withDependencies: {
      $0.numberFact = gate.client
    }
    store.exhaustivity = .off
    await store.send(\.router[id: 0].home.startTapped)
    await store.send(\.router[id: 1].numbersList.numberSelected, 42)
    await withKnownIssue {
      await store.send(\.router[id: 2].numberDetail.factButtonTapped)
      #expect(await gate.waitFor("started 42"))
      await store.send(\.router[id: 2].numberDetail.goBackTapped)
      gate.open()
      await store.receive(\.router[id: 2].numberDetail.factResponse, "fact 42")
    } matching: { issue in
      issue.description.contains("received an action for a missing route")
    }
    #expect(gate.log.value == ["started 42", "finished 42"])
    await store.finish()
  }

  @Test func updateRoutesWithARepeatedIDIsReportedAndKeepsTheFirst() async {
    let store = TestStore(initialState: IdentifiedCoordinator.State()) {
      IdentifiedCoordinator()
    }
    let other = Route<Screen.State>.push(.numbersList(.init(id: 0)))
    await withKnownIssue {
      await store.send(.router(.updateRoutes([root, sheet, other]))) {
        $0.routes = [self.root, self.sheet]
      }
    } matching: { issue in
      issue.description.contains("received 3 routes of which only 2 have distinct IDs")
    }
  }
}

/// A screen that calls `dismiss`, which a coordinator's screen cannot do.
@Reducer
struct DismissingScreen {
  struct State: Equatable, Codable, Sendable {}
  enum Action: Equatable, Sendable {
    case closeTapped
  }
  @Dependency(\.dismiss) var dismiss
  var body: some ReducerOf<Self> {
    Reduce { _, _ in .run { _ in await dismiss() } }
  }
}

@Reducer
struct DismissingCoordinator {
  @Reducer
  enum Screen {
    case dismissing(DismissingScreen)
  }
  struct State: Equatable {
    var routes: [Route<Screen.State>]
  }
  enum Action: Equatable {
    case router(IndexedRouterActionOf<Screen>)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer().forEachRoute(\.routes, action: \.router)
  }
}

extension DismissingCoordinator.Screen.State: Equatable {}
extension DismissingCoordinator.Screen.Action: Equatable {}
