import Foundation
import StackNavigation
import Testing

/// `StackAction` and `RouterAction` encode by hand (their keys declared outside the generic
/// types): what they write must stay what a synthesized encoding writes, which journals already
/// hold and the synthesized `Decodable` reads.
@Suite struct ActionEncodingTests {
  /// Enums with `StackAction`'s and `RouterAction`'s cases, whose encodings are synthesized.
  enum SynthesizedStackAction<State: Codable, Action: Codable>: Codable {
    case element(id: StackElementID, action: Action)
    case popFrom(id: StackElementID)
    case push(id: StackElementID, state: State)
  }

  enum SynthesizedRouterAction<ID: Codable, Screen: Codable, ScreenAction: Codable>: Codable {
    case routeAction(_ id: ID, action: ScreenAction)
    case updateRoutes(_ routes: [Route<Screen>])
  }

  struct Screen: Codable, Equatable {
    var title: String
    var offset: Double
  }

  enum ScreenAction: Codable, Equatable {
    case scrolled(offset: Double)
    case renamed(String)
  }

  /// With sorted keys: without, `JSONEncoder` orders an object's members differently from run
  /// to run here.
  private func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test func stackActionsEncodeAsSynthesized() throws {
    typealias Written = StackAction<Screen, ScreenAction>
    typealias Synthesized = SynthesizedStackAction<Screen, ScreenAction>
    let screen = Screen(title: "Line \"one\"\n", offset: 12.5)
    let pairs: [(Written, Synthesized)] = [
      (
        .element(id: 3, action: .scrolled(offset: 1.25)),
        .element(id: 3, action: .scrolled(offset: 1.25))
      ),
      (.element(id: 0, action: .renamed("é")), .element(id: 0, action: .renamed("é"))),
      (.popFrom(id: 41), .popFrom(id: 41)),
      (.push(id: 7, state: screen), .push(id: 7, state: screen)),
    ]
    for (written, synthesized) in pairs {
      let text = try json(written)
      #expect(text == (try json(synthesized)))
      #expect(try JSONDecoder().decode(Written.self, from: Data(text.utf8)) == written)
    }
    #expect(
      try json(Written.element(id: 3, action: .renamed("a")))
        == #"{"element":{"action":{"renamed":{"_0":"a"}},"id":3}}"#)
  }

  @Test func routerActionsEncodeAsSynthesized() throws {
    typealias Written = RouterAction<Int, Screen, ScreenAction>
    typealias Synthesized = SynthesizedRouterAction<Int, Screen, ScreenAction>
    let routes: [Route<Screen>] = [
      .root(Screen(title: "home", offset: 0)), .push(Screen(title: "detail", offset: 3)),
      .sheet(Screen(title: "sheet", offset: 0), embedInNavigationView: true),
    ]
    let pairs: [(Written, Synthesized)] = [
      (.routeAction(2, action: .renamed("x")), .routeAction(2, action: .renamed("x"))),
      (.updateRoutes(routes), .updateRoutes(routes)),
      (.updateRoutes([]), .updateRoutes([])),
    ]
    for (written, synthesized) in pairs {
      let text = try json(written)
      #expect(text == (try json(synthesized)))
      #expect(try JSONDecoder().decode(Written.self, from: Data(text.utf8)) == written)
    }
    #expect(
      try json(Written.routeAction(1, action: .scrolled(offset: 2)))
        == #"{"routeAction":{"_0":1,"action":{"scrolled":{"offset":2}}}}"#)
  }
}
