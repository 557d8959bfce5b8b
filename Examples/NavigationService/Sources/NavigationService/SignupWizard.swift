import StackNavigation

/// A three-step sign-up wizard: a name, a plan, a confirmation. Each step is a stack element, so
/// the stack is the wizard's progress and every step keeps its generational ID.
@Reducer
public struct SignupWizard {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    /// The steps on screen, the first pushed first.
    public var path = StackState<Path.State>()
    /// How many sign-ups were submitted in this session.
    public var submitted = 0

    /// An empty wizard.
    public init() {}
  }

  public enum Action: Equatable, Codable, Sendable {
    case path(StackActionOf<Path>)
    /// Pushes the first step.
    case startTapped
    /// Pops every step.
    case cancelTapped
  }

  @Reducer
  public enum Path {
    case name(NameStep)
    case plan(PlanStep)
    case confirm(ConfirmStep)
  }

  /// Creates the wizard.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        state.path.append(.name(NameStep.State()))
        return .none

      case .cancelTapped:
        state.path.removeAll()
        return .none

      case .path(.element(id: let id, action: .name(.nextTapped))):
        guard let name = state.path[id: id]?.name?.name, !name.isEmpty else { return .none }
        state.path.append(.plan(PlanStep.State(name: name)))
        return .none

      case .path(.element(id: let id, action: .plan(.nextTapped))):
        guard let step = state.path[id: id]?.plan, let plan = step.plan else { return .none }
        state.path.append(.confirm(ConfirmStep.State(name: step.name, plan: plan)))
        return .none

      case .path(.element(id: _, action: .confirm(.submitTapped))):
        state.submitted += 1
        state.path.removeAll()
        return .none

      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path)
  }
}

/// The first step: the user's name.
@Reducer
public struct NameStep {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var name = ""
    public init() {}
  }
  public enum Action: Equatable, Codable, Sendable {
    case nameChanged(name: String)
    case nextTapped
  }
  public init() {}
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .nameChanged(let name) = action { state.name = String(name.prefix(200)) }
      return .none
    }
  }
}

/// The second step: a plan, chosen from a fixed list.
@Reducer
public struct PlanStep {
  /// The plans offered.
  public static let plans = ["free", "team", "enterprise"]

  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var name: String
    public var plan: String?
    public init(name: String, plan: String? = nil) {
      self.name = name
      self.plan = plan
    }
  }
  public enum Action: Equatable, Codable, Sendable {
    case planChosen(plan: String)
    case nextTapped
  }
  public init() {}
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .planChosen(let plan) = action, Self.plans.contains(plan) { state.plan = plan }
      return .none
    }
  }
}

/// The last step: what will be submitted.
@Reducer
public struct ConfirmStep {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var name: String
    public var plan: String
    public init(name: String, plan: String) {
      self.name = name
      self.plan = plan
    }
  }
  public enum Action: Equatable, Codable, Sendable {
    case submitTapped
  }
  public init() {}
  public var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
  }
}

// The enum `@Reducer` generates `Path.State` and `Path.Action`; their conformances are declared
// here, as for any `@Reducer enum`.
extension SignupWizard.Path.State: Equatable, Codable, Sendable {}
extension SignupWizard.Path.Action: Equatable, Codable, Sendable {}
