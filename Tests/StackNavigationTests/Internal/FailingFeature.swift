import StackNavigation

/// A feature whose actions produce each kind of TestStore failure a test can meet.
struct FailingFeature: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case increment
    case startEcho
    case echoed
    case startLongWork
    case dismissSelf
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .startEcho:
        return .send(.echoed)
      case .echoed:
        return .none
      case .startLongWork:
        return .run { _ in try await Task.sleep(for: .seconds(3600)) }
      case .dismissSelf:
        return .run { _ in await dismiss() }
      }
    }
  }
}

/// The start of each TestStore failure message, by kind.
enum FailureMessage {
  static let stateMismatch = "A state change does not match expectation"
  static let unassertedChange = "State was not expected to change, but a change occurred"
  static let unexpectedReceive = "Received unexpected action:"
  static let unreceivedAction = "The store received 1 unexpected action"
  static let runningEffect = "An effect returned for this action is still running"
  static let dismissedSend = "Can't send action to dismissed test store."
  static let noActionsToSkip = "There were no received actions to skip."
  static let noEffectsToSkip = "There were no in-flight effects to skip."
  static let taskStillRunning = "Expected task to finish, but it is still in-flight after"
  static let noMatchingAction =
    "Expected to receive an action matching predicate, but didn't get one."
  static let skipped = "Skipped assertions."
  static let unchangedModify = #"Expected "Int" value to be modified but it was unchanged."#
}
