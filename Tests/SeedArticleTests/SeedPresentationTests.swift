// The seed episode's number-fact screen, whose fact appears as an alert inside a stack element,
// with a sheet presented over the stack (a `@Reducer enum Destination` beside the `Path`) whose
// feature dismisses itself through `@Dependency(\.dismiss)` — written and tested as a TCA user
// writes them, `Codable` added so that a `RecordingStore` can journal them — and the
// `_printChanges()` log the episode reads.
import ConcurrencyExtras
import Foundation
import StackNavigation
import Testing

@Reducer
struct NumberFactFeature {
  @ObservableState
  struct State: Equatable, Codable {
    @Presents var alert: AlertState<Alert>?
    var number: Int
  }
  enum Action: Equatable, Codable {
    case alert(PresentationAction<Alert>)
    case factButtonTapped
    case factResponse(String)
  }
  @CasePathable
  enum Alert: Equatable, Codable {
    case tryAgain
  }
  @Dependency(\.factClient) var factClient

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.tryAgain)):
        return .send(.factButtonTapped)
      case .alert:
        return .none
      case .factButtonTapped:
        return .run { [number = state.number] send in
          await send(.factResponse(try await factClient.fetch(number)))
        }
      case let .factResponse(fact):
        state.alert = AlertState {
          TextState(fact)
        } actions: {
          ButtonState(role: .cancel) { TextState("OK") }
          ButtonState(action: .tryAgain) { TextState("Another one") }
        }
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

struct FactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

extension FactClient: DependencyKey {
  static let liveValue = FactClient { "\($0) is a good number." }
  static let testValue = FactClient { "\($0) is a good number." }
}

extension DependencyValues {
  var factClient: FactClient {
    get { self[FactClient.self] }
    set { self[FactClient.self] = newValue }
  }
}

/// A sheet that keeps a timer running while it is open and closes itself.
@Reducer
struct SettingsFeature {
  @ObservableState
  struct State: Equatable, Codable {
    var ticks = 0
  }
  enum Action: Equatable, Codable {
    case closeButtonTapped
    case onAppear
    case tick
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .closeButtonTapped:
        return .run { _ in await dismiss() }
      case .onAppear:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}

@Reducer
struct CounterStackFeature {
  @ObservableState
  struct State: Equatable, Codable {
    @Presents var destination: Destination.State?
    var path = StackState<Path.State>()
  }
  enum Action: Codable {
    case destination(PresentationAction<Destination.Action>)
    case path(StackActionOf<Path>)
    case resetButtonTapped
    case settingsButtonTapped
  }

  @Reducer
  enum Path {
    case counter(CounterFeature)
    case numberFact(NumberFactFeature)
  }

  @Reducer
  enum Destination {
    case confirmReset(AlertState<ConfirmReset>)
    case settings(SettingsFeature)

    @CasePathable
    enum ConfirmReset: Equatable, Codable {
      case confirm
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .destination(.presented(.confirmReset(.confirm))):
        state.path.removeAll()
        return .none
      case .destination, .path:
        return .none
      case .resetButtonTapped:
        state.destination = .confirmReset(
          AlertState {
            TextState("Reset?")
          } actions: {
            ButtonState(role: .destructive, action: .confirm) { TextState("Reset") }
          })
        return .none
      case .settingsButtonTapped:
        state.destination = .settings(SettingsFeature.State())
        return .none
      }
    }
    .forEach(\.path, action: \.path)
    .ifLet(\.$destination, action: \.destination)
  }
}

extension CounterStackFeature.Path.State: Equatable, Codable {}
extension CounterStackFeature.Path.Action: Codable {}
extension CounterStackFeature.Destination.State: Equatable, Codable {}
extension CounterStackFeature.Destination.Action: Codable {}

@MainActor
@Suite struct SeedPresentationTests {
  @Test func theFactAppearsAsAnAlertInsideTheStackElement() async {
    let store = TestStore(
      initialState: CounterStackFeature.State(path: [.numberFact(.init(number: 42))])
    ) {
      CounterStackFeature()
    }
    await store.send(\.path[id: 0].numberFact.factButtonTapped)
    await store.receive(\.path[id: 0].numberFact.factResponse) {
      $0.path[id: 0, case: \.numberFact]?.alert = AlertState {
        TextState("42 is a good number.")
      } actions: {
        ButtonState(role: .cancel) { TextState("OK") }
        ButtonState(action: .tryAgain) { TextState("Another one") }
      }
    }
    // The alert's button sends its action and the alert goes away, as in TCA.
    await store.send(\.path[id: 0].numberFact.alert.tryAgain) {
      $0.path[id: 0, case: \.numberFact]?.alert = nil
    }
    await store.receive(\.path[id: 0].numberFact.factButtonTapped)
    await store.receive(\.path[id: 0].numberFact.factResponse) {
      $0.path[id: 0, case: \.numberFact]?.alert = AlertState {
        TextState("42 is a good number.")
      } actions: {
        ButtonState(role: .cancel) { TextState("OK") }
        ButtonState(action: .tryAgain) { TextState("Another one") }
      }
    }
    await store.send(\.path[id: 0].numberFact.alert.dismiss) {
      $0.path[id: 0, case: \.numberFact]?.alert = nil
    }
  }

  @Test func aSheetOverTheStackDismissesItselfAndItsTimerStops() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: CounterStackFeature.State(path: [.counter(.init(count: 1))])
    ) {
      CounterStackFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.settingsButtonTapped) {
      $0.destination = .settings(SettingsFeature.State())
    }
    await store.send(\.destination.settings.onAppear)
    await clock.advance(by: .seconds(1))
    await store.receive(\.destination.settings.tick) {
      $0.destination?.modify(\.settings) { $0.ticks = 1 }
    }
    await store.send(\.destination.settings.closeButtonTapped)
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
    // The timer was cancelled with the sheet: no tick arrives, and the test ends with nothing
    // running (an exhaustive store fails on an effect still running).
    await clock.advance(by: .seconds(5))
    #expect(store.state.path.count == 1)
  }

  @Test func anAlertDestinationSendsItsButtonsActionToTheParent() async {
    let store = TestStore(
      initialState: CounterStackFeature.State(path: [.counter(.init()), .counter(.init())])
    ) {
      CounterStackFeature()
    }
    await store.send(.resetButtonTapped) {
      $0.destination = .confirmReset(
        AlertState {
          TextState("Reset?")
        } actions: {
          ButtonState(role: .destructive, action: .confirm) { TextState("Reset") }
        })
    }
    await store.send(\.destination.confirmReset.confirm) {
      $0.destination = nil
      $0.path.removeAll()
    }
  }

  @Test func aChildActionForAnAbsentDestinationFailsTheTest() async {
    await withKnownIssue {
      let store = TestStore(initialState: CounterStackFeature.State()) { CounterStackFeature() }
      await store.send(\.destination.settings.closeButtonTapped)
    } matching: {
      $0.description.contains("received a presentation action when destination state was absent")
    }
  }

  /// The log the episode reads: the action that set the alert, then the path with the elements
  /// that did not change collapsed.
  @Test func printChangesShowsTheAlertAppearInTheFourthElement() async {
    let log = LockIsolated<[String]>([])
    let store = TestStore(
      initialState: CounterStackFeature.State(
        path: [
          .counter(.init(count: 42)), .counter(.init(count: 1729)), .counter(.init(count: -999)),
          .numberFact(.init(number: -999)),
        ])
    ) {
      CounterStackFeature()
        ._printChanges(.customDump(to: { text in log.withValue { $0.append(text) } }))
    }
    await store.send(\.path[id: 3].numberFact.factButtonTapped)
    await store.receive(\.path[id: 3].numberFact.factResponse) {
      $0.path[id: 3, case: \.numberFact]?.alert = AlertState {
        TextState("-999 is a good number.")
      } actions: {
        ButtonState(role: .cancel) { TextState("OK") }
        ButtonState(action: .tryAgain) { TextState("Another one") }
      }
    }
    let entries = log.value
    #expect(entries.count == 2)
    #expect(
      entries.first
        == """
        received action:
          CounterStackFeature.Action.path(
            .element(
              id: #3,
              action: .numberFact(.factButtonTapped)
            )
          )
          (No state changes)
        """)
    let second = entries.last ?? ""
    #expect(second.hasPrefix("received action:\n  CounterStackFeature.Action.path("))
    #expect(second.contains("… (3 unchanged)"), "\(second)")
    #expect(second.contains("\n-         _alert: nil,\n+         _alert: AlertState(\n"), "\(second)")
    #expect(second.contains("+           title: \"-999 is a good number.\","), "\(second)")
  }
}
