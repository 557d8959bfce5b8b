// Route's stored shape, the conveniences on routes, and the router action's case paths.
import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import Testing

private typealias Screen = Coordinator.Screen

@Suite struct RouteTests {
  private func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test func codableShapeHasThePresentationStyleAsItsSingleKey() throws {
    let routes: [Route<Screen.State>] = [
      .root(.home(.init()), embedInNavigationView: true),
      .sheet(.numbersList(.init(numbers: [1])), embedInNavigationView: true),
      .push(.numberDetail(.init(number: 1))),
      .cover(.numberDetail(.init(number: 2))),
    ]
    #expect(
      try routes.map(json) == [
        #"{"sheet":{"embedInNavigationView":true,"screen":{"home":{"_0":{"id":0}}}}}"#,
        #"{"sheet":{"embedInNavigationView":true,"screen":{"numbersList":{"_0":{"id":0,"numbers":[1]}}}}}"#,
        #"{"push":{"screen":{"numberDetail":{"_0":{"id":0,"number":1}}}}}"#,
        #"{"cover":{"embedInNavigationView":false,"screen":{"numberDetail":{"_0":{"id":0,"number":2}}}}}"#,
      ])
    let decoded = try JSONDecoder().decode(
      [Route<Screen.State>].self, from: Data(try json(routes).utf8))
    #expect(decoded == routes)
  }

  @Test func decodingNeedsExactlyOneStyle() throws {
    let leftOut = #"{"sheet":{"screen":{"home":{"_0":{"id":0}}}}}"#
    #expect(
      try JSONDecoder().decode(Route<Screen.State>.self, from: Data(leftOut.utf8))
        == .sheet(.home(.init()), embedInNavigationView: false))
    for (text, found) in [
      (#"{}"#, "none"),
      (#"{"screen":{"home":{"_0":{"id":0}}}}"#, "none"),
      (#"{"push":{"screen":{"home":{"_0":{"id":0}}}},"cover":{"screen":{"home":{"_0":{"id":0}}}}}"#,
       "\"cover\", \"push\""),
    ] {
      do {
        _ = try JSONDecoder().decode(Route<Screen.State>.self, from: Data(text.utf8))
        Issue.record("decoded \(text)")
      } catch let DecodingError.dataCorrupted(context) {
        let message = context.debugDescription
        #expect(message.hasPrefix("A route has exactly one of the keys"), "\(message)")
        // The order of keys in a JSON object is not kept by every decoder.
        #expect(
          message.hasSuffix("found \(found).")
            || message.hasSuffix("found \"push\", \"cover\"."), "\(message)")
      }
    }
  }

  @Test func conveniencesOnAnArray() {
    var routes: [Route<Screen.State>] = [.root(.home(.init()), embedInNavigationView: true)]
    routes.presentSheet(.numbersList(.init()), embedInNavigationView: true)
    routes.push(.numberDetail(.init(number: 1)))
    routes.push(.numberDetail(.init(number: 2)))
    routes.presentCover(.numberDetail(.init(number: 3)), embedInNavigationView: true)
    routes.push(.numberDetail(.init(number: 4)))
    #expect(routes.count == 6)

    let changed1 = routes.pop()
    #expect(changed1)
    #expect(routes.count == 5)
    let changed2 = routes.pop()
    #expect(!changed2, "the top screen is presented, not pushed")
    let changed3 = routes.dismiss()
    #expect(changed3)
    #expect(routes.last == .push(.numberDetail(.init(number: 2))))
    routes.popToRoot()
    #expect(routes.count == 2, "back to the presented list")
    routes.push(.numberDetail(.init(number: 5)))
    let changed4 = routes.goBackTo(\.numbersList)
    #expect(changed4)
    #expect(routes.count == 2)
    let changed5 = routes.goBackTo(where: { $0.numberDetail?.number == 99 })
    #expect(!changed5)
    routes.push(.numberDetail(.init(number: 6)))
    routes.presentSheet(.numberDetail(.init(number: 7)))
    let changed6 = routes.dismissAll()
    #expect(changed6)
    #expect(routes.count == 1)
    let changed7 = routes.dismiss()
    #expect(!changed7)
    let changed8 = routes.dismissAll()
    #expect(!changed8)
    routes.push(.numberDetail(.init(number: 8)))
    routes.push(.numberDetail(.init(number: 9)))
    let changed9 = routes.goBackTo(index: 1)
    #expect(changed9)
    let changed10 = routes.goBackTo(index: 5)
    #expect(!changed10)
    routes.goBack(10)
    #expect(routes == [.root(.home(.init()), embedInNavigationView: true)], "the root stays")
    routes.popToRoot()
    routes.goBackToRoot()
    #expect(routes.count == 1)
  }

  @Test func conveniencesOnAnIdentifiedArray() {
    var routes: IdentifiedArrayOf<Route<Screen.State>> = [
      .root(.home(.init(id: 0)), embedInNavigationView: true)
    ]
    routes.presentSheet(.numbersList(.init(id: 1)), embedInNavigationView: true)
    routes.push(.numberDetail(.init(id: 2, number: 1)))
    routes.presentCover(.numberDetail(.init(id: 3, number: 2)))
    #expect(routes.ids == [0, 1, 2, 3])
    let changed11 = routes.dismiss()
    #expect(changed11)
    #expect(routes.ids == [0, 1, 2])
    let changed12 = routes.pop()
    #expect(changed12)
    let changed13 = routes.goBackTo(id: 0)
    #expect(changed13)
    #expect(routes.ids == [0])
    routes.presentSheet(.numbersList(.init(id: 4)), embedInNavigationView: true)
    routes.push(.numberDetail(.init(id: 5, number: 1)))
    let changed14 = routes.goBackTo(\.numbersList)
    #expect(changed14)
    #expect(routes.ids == [0, 4])
    routes.push(.numberDetail(.init(id: 6, number: 1)))
    routes.popToRoot()
    #expect(routes.ids == [0, 4])
    let changed15 = routes.dismissAll()
    #expect(changed15)
    routes.goBack()
    routes.goBackToRoot()
    #expect(routes.ids == [0])
  }

  @Test func pushingATakenIDIsReportedAndPushesNothing() {
    var routes: IdentifiedArrayOf<Route<Screen.State>> = [
      .root(.home(.init(id: 0)), embedInNavigationView: true)
    ]
    withKnownIssue {
      routes.push(.numberDetail(.init(id: 0, number: 1)))
    } matching: { issue in
      issue.description.contains("A screen with the ID 0 is already in the routes")
    }
    #expect(routes.ids == [0])
  }

  @Test func pushingOntoASheetWithoutNavigationIsReported() {
    var routes: [Route<Screen.State>] = [.root(.home(.init()))]
    routes.push(.numberDetail(.init(number: 1)))  // a root without navigation is not reported
    routes.presentSheet(.numbersList(.init()))
    withKnownIssue {
      routes.push(.numberDetail(.init(number: 2)))
    } matching: { issue in
      issue.description.contains("pushed onto a presented screen that is not embedded")
    }
    #expect(routes.count == 4)
  }

  @Test func routerActionCasePathsAndCodable() throws {
    let action = Coordinator.Action.router(.routeAction(2, action: .numberDetail(.goBackTapped)))
    #expect(action[case: \.router[id: 2].numberDetail.goBackTapped] != nil)
    #expect(action[case: \.router[id: 1]] == nil)
    #expect(action[case: \.router.routeAction]?.id == 2)
    let update = Coordinator.Action.router(.updateRoutes([.root(.home(.init()))]))
    #expect(update[case: \.router.updateRoutes]?.count == 1)
    for value in [action, update] {
      let decoded = try JSONDecoder().decode(
        Coordinator.Action.self, from: JSONEncoder().encode(value))
      #expect(decoded == value)
    }
    let identified = IdentifiedCoordinator.Action.router(
      .routeAction(4, action: .numbersList(.numberSelected(3))))
    #expect(identified[case: \.router[id: 4].numbersList.numberSelected] == 3)
  }

  @Test func routeWithDelaysIfUnsupportedSendsOneUpdate() async {
    let routes: [Route<Screen.State>] = [
      .root(.home(.init())), .push(.numbersList(.init())), .push(.numberDetail(.init(number: 1))),
    ]
    let effect = Effect<Coordinator.Action>.routeWithDelaysIfUnsupported(
      routes, action: \.router
    ) {
      $0.goBackToRoot()
      $0.presentSheet(.numbersList(.init()), embedInNavigationView: true)
    }
    let store = Store(initialState: Coordinator.State(routes: routes)) {
      Reduce<Coordinator.State, Coordinator.Action> { _, action in
        if case .router(.routeAction) = action { return effect }
        return .none
      }
      Coordinator()
    }
    _ = try? await store.send(.router(.routeAction(0, action: .home(.startFlowTapped))))
    await store.waitForEffects()
    #expect(
      await store.state.routes == [
        .root(.home(.init())), .sheet(.numbersList(.init()), embedInNavigationView: true),
      ])
  }
}
