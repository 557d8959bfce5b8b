import StackNavigation

/// Whether a client's action applies to the wizard as it is, checked before the action reaches
/// the store: an action the stack reducer would only warn about (an element that is not in the
/// stack, a step of another kind, a push under an ID it cannot take) is the client's mistake, so
/// it is refused with a 422 and never journaled.
extension SignupWizard.Action {
  /// Why the action does not apply to `state`, or `nil` when it does.
  func refusal(in state: SignupWizard.State) -> APIError? {
    guard case .path(let stackAction) = self else { return nil }
    let ids = state.path.ids.map(\.generation)
    switch stackAction {
    case .popFrom(let id):
      guard state.path[id: id] != nil else {
        return .unknownElement(id.generation, stack: ids, doing: "pop from")
      }
    case .element(let id, let action):
      guard let element = state.path[id: id] else {
        return .unknownElement(id.generation, stack: ids, doing: "send an action to")
      }
      if element.step != action.step {
        return APIError(
          .unprocessableContent, code: "wrongStep",
          message: "Element \(id.generation) is a \(element.step) step; the action is for a "
            + "\(action.step) step. Nothing was recorded.")
      }
    case .push(let id, _):
      if state.path[id: id] != nil {
        return APIError(
          .unprocessableContent, code: "pushRefused",
          message: "The stack already holds element \(id.generation). Nothing was recorded.")
      }
      if id > state.path.nextID {
        return APIError(
          .unprocessableContent, code: "pushRefused",
          message: "The stack's next ID is \(state.path.nextID.generation); it cannot take "
            + "\(id.generation). Nothing was recorded.")
      }
    }
    return nil
  }
}

extension APIError {
  /// An action for an element the stack does not hold (popped, or never pushed).
  static func unknownElement(_ id: Int, stack: [Int], doing: String) -> APIError {
    let held = stack.isEmpty ? "it is empty" : "it holds \(stack.prefix(20).map(String.init))"
    return APIError(
      .unprocessableContent, code: "unknownElement",
      message: "Cannot \(doing) element \(id): the stack has no element with that ID "
        + "(\(held)). Nothing was recorded.")
  }
}

extension SignupWizard.Path.State {
  /// The kind of step, as the API names it.
  var step: String {
    switch self {
    case .name: "name"
    case .plan: "plan"
    case .confirm: "confirm"
    }
  }
}

extension SignupWizard.Path.Action {
  /// The kind of step the action is for.
  var step: String {
    switch self {
    case .name: "name"
    case .plan: "plan"
    case .confirm: "confirm"
    }
  }
}
