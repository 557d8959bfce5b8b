extension Reducer {
  /// Integrates a navigation stack: runs `destination` on the elements of the stack at
  /// `toStackState` for the actions at `toStackAction`, and pushes and pops elements.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path) { Path() }
  /// ```
  ///
  /// * `element(id:action:)` runs the element's reducer, then this reducer.
  /// * `push(id:state:)` adds the element, then runs this reducer.
  /// * `popFrom(id:)` runs this reducer, then pops the element and everything above it.
  ///
  /// An action for a missing element, a push under an ID the stack already handed out, and a
  /// pop of a missing ID are reported as issues (a failure in tests) and change nothing. The
  /// effects of an element are cancelled when the element leaves the stack, however it leaves.
  public func forEach<ElementState, ElementAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination>
  where Destination.State == ElementState, Destination.Action == ElementAction {
    _StackReducer(
      base: self,
      toStackState: toStackState,
      toStackAction: AnyCasePath(toStackAction),
      stackIdentity: StackIdentity(keyPath: toStackState),
      destination: destination(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

struct SourceLocation {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
}

/// Identifies the effects of one element of one stack, for cancellation.
struct StackIdentity: Hashable, @unchecked Sendable {
  let keyPath: AnyKeyPath
}

struct StackElementEffectID: Hashable, Sendable {
  let stack: StackIdentity
  let id: StackElementID
}

/// The reducer ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)`` builds.
public struct _StackReducer<Base: Reducer, Destination: Reducer>: Reducer {
  let base: Base
  let toStackState: WritableKeyPath<Base.State, StackState<Destination.State>>
  let toStackAction: AnyCasePath<Base.Action, StackAction<Destination.State, Destination.Action>>
  let stackIdentity: StackIdentity
  let destination: Destination
  let location: SourceLocation

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let idsBefore = state[keyPath: toStackState].ids
    let stackIdentity = self.stackIdentity
    let effects: Effect<Base.Action>

    switch toStackAction.extract(from: action) {
    case let .element(id, elementAction)?:
      guard state[keyPath: toStackState][id: id] != nil else {
        report(
          """
          A stack received an action for an element that is not in the stack.

            Action: \(String(customDumping: action))
            Missing ID: \(id)

          This happens when an effect of an element sends an action after the element was \
          popped, or when an action names an ID that was never pushed.
          """)
        return .none
      }
      let elementEffect = withDependencies {
        $0.navigationIDPath.elements.append(StackElementEffectID(stack: stackIdentity, id: id))
      } operation: {
        destination.reduce(into: &state[keyPath: toStackState][id: id]!, action: elementAction)
      }
      let baseEffect = base.reduce(into: &state, action: action)
      effects = elementEffects(elementEffect, id: id).merge(with: baseEffect)

    case let .push(id, elementState)?:
      let stack = state[keyPath: toStackState]
      guard !stack.ids.contains(id), id >= stack.nextID, id <= StackElementID.largest else {
        let reason =
          stack.ids.contains(id)
          ? "An element with this ID is already in the stack."
          : id > StackElementID.largest
            ? "The ID is above the largest a stack hands out (\(StackElementID.largest))."
            : "The stack already handed out this ID (its next ID is \(stack.nextID)); "
              + "an ID is never handed out twice."
        report(
          """
          A stack received a push with an ID it cannot accept.

            Action: \(String(customDumping: action))
            \(reason)

          Push new elements by appending to the stack's state, or push with the stack's \
          'nextID'.
          """)
        return .none
      }
      state[keyPath: toStackState][id: id] = elementState
      effects = base.reduce(into: &state, action: action)

    case let .popFrom(id)?:
      guard state[keyPath: toStackState].ids.contains(id) else {
        report(
          """
          A stack received a pop for an element that is not in the stack.

            Action: \(String(customDumping: action))
            Missing ID: \(id)
          """)
        return .none
      }
      let baseEffect = base.reduce(into: &state, action: action)
      state[keyPath: toStackState].pop(from: id)
      effects = baseEffect

    case nil:
      effects = base.reduce(into: &state, action: action)
    }

    let idsAfter = Set(state[keyPath: toStackState].ids)
    let gone = idsBefore.filter { !idsAfter.contains($0) }
    guard !gone.isEmpty else { return effects }
    // Last, so that work the action itself started for an element it removed is cancelled too.
    return effects.merge(
      with: .merge(gone.map { .cancel(id: StackElementEffectID(stack: stackIdentity, id: $0)) }))
  }

  /// The element's effects as the parent's: cancellable with the element, and with a
  /// `dismiss` that pops the element.
  func elementEffects(
    _ effect: Effect<Destination.Action>,
    id: StackElementID
  ) -> Effect<Base.Action> {
    let toStackAction = self.toStackAction
    return
      effect
      .map { toStackAction.embed(.element(id: id, action: $0)) }
      .wrapRuns { send, operation in
        let handler = DismissHandler { await send(toStackAction.embed(.popFrom(id: id))) }
        await DismissHandler.$current.withValue(handler) {
          await operation()
        }
      }
      .cancellable(id: StackElementEffectID(stack: stackIdentity, id: id))
  }

  func report(_ message: String) {
    reportFailure(
      message,
      fileID: location.fileID, filePath: location.filePath,
      line: location.line, column: location.column
    )
  }
}
