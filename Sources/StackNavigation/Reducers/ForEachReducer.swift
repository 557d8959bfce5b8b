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
  /// As in the Composable Architecture, an action for a missing element, a pop of a missing
  /// element, a push of an ID the stack holds and a push of an ID above the stack's next ID are
  /// reported as issues (a failure in tests) with the same messages; the parent's reducer still
  /// runs for them. A push of an ID popped earlier is accepted.
  ///
  /// The effects of an element are cancelled when the element leaves the stack: when this
  /// operator's action removes it, at once; when another reducer pops or removes it (a `Reduce`
  /// before or after this one calling `removeAll()`), no later than the next action this
  /// operator sees. As in the Composable Architecture, the IDs it last saw travel in the stack's
  /// value: a reducer that assigns a new stack (`state.path = StackState()`) drops them, so pop
  /// or remove the elements instead.
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
    stackReducer(
      toStackState, AnyCasePath(toStackAction), destination(),
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The stack reducer of `forEach`, whichever way its action is named.
  func stackReducer<ElementState, ElementAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<ElementState>>,
    _ toStackAction: AnyCasePath<Action, StackAction<ElementState, ElementAction>>,
    _ destination: Destination,
    _ location: SourceLocation
  ) -> _StackReducer<Self, Destination>
  where Destination.State == ElementState, Destination.Action == ElementAction {
    _StackReducer(
      base: self, toStackState: toStackState, toStackAction: toStackAction,
      stackIdentity: StackIdentity(keyPath: toStackState), destination: destination,
      location: location)
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

struct StackElementEffectID: NavigationEffectID {
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
    let stackIdentity = self.stackIdentity
    // The elements whose work may be running: those this operator saw last time (another reducer
    // may have removed some since) and those in the stack now.
    let idsBefore = state[keyPath: toStackState].idsWithRunningWork
    let elementEffects: Effect<Base.Action>
    let baseEffects: Effect<Base.Action>

    switch toStackAction.extract(from: action) {
    case let .element(id, elementAction)?:
      if state[keyPath: toStackState][id: id] != nil {
        let effect = withDependencies {
          $0.navigationIDPath.elements.append(
            AnyHashableSendable(StackElementEffectID(stack: stackIdentity, id: id)))
        } operation: {
          destination.reduce(into: &state[keyPath: toStackState][id: id]!, action: elementAction)
        }
        elementEffects = self.elementEffects(effect, id: id)
      } else {
        report(
          """
          A "forEach" at "\(location.fileID):\(location.line)" received an action for a missing \
          element.

            Action:
              \(debugCaseOutput(elementAction))

          This is generally considered an application logic error, and can happen for a few reasons:

          A parent reducer removed an element with this ID before this reducer ran. This reducer \
          must run before any other reducer removes an element, which ensures that element \
          reducers can handle their actions while their state is still available.

          An in-flight effect emitted this action when state contained no element at this ID. \
          While it may be perfectly reasonable to ignore this action, consider canceling the \
          associated effect before an element is removed, especially if it is a long-living effect.

          This action was sent to the store while its state contained no element at this ID. To \
          fix this make sure that actions for this reducer can only be sent from a store when \
          its state contains an element at this id. In SwiftUI applications, use \
          "NavigationStack.init(path:)" with a binding to a store.
          """)
        elementEffects = .none
      }
      baseEffects = base.reduce(into: &state, action: action)

    case let .popFrom(id)?:
      elementEffects = .none
      let canPop = state[keyPath: toStackState].ids.contains(id)
      baseEffects = base.reduce(into: &state, action: action)
      if canPop {
        state[keyPath: toStackState].pop(from: id)
      } else {
        report(
          """
          A "forEach" at "\(location.fileID):\(location.line)" received a "popFrom" action for a \
          missing element.

            ID:
              \(id)
            Path IDs:
              \(state[keyPath: toStackState].ids)
          """)
      }

    case let .push(id, elementState)?:
      elementEffects = .none
      let stack = state[keyPath: toStackState]
      if stack.ids.contains(id) {
        report(
          """
          A "forEach" at "\(location.fileID):\(location.line)" received a "push" action for an \
          element it already contains.

            ID:
              \(id)
            Path IDs:
              \(stack.ids)
          """)
        baseEffects = base.reduce(into: &state, action: action)
        break
      }
      if id > stack.nextID {
        report(
          """
          A "forEach" at "\(location.fileID):\(location.line)" received a "push" action with an \
          unexpected generational ID.

            Received ID:
              \(id)
            Expected ID:
              \(stack.nextID)
          """)
      }
      // An ID popped earlier is accepted, as the Composable Architecture accepts it; the next ID
      // never goes down. IDs above the largest a stack holds are reported by the stack.
      state[keyPath: toStackState][id: id] = elementState
      baseEffects = base.reduce(into: &state, action: action)

    case nil:
      elementEffects = .none
      baseEffects = base.reduce(into: &state, action: action)
    }

    let idsAfter = state[keyPath: toStackState].ids
    if state[keyPath: toStackState].mountedIDs != idsAfter {
      state[keyPath: toStackState].mountedIDs = idsAfter
    }
    let effects = elementEffects.merge(with: baseEffects)
    guard idsBefore != idsAfter else { return effects }
    let kept = Set(idsAfter)
    let gone = idsBefore.filter { !kept.contains($0) }
    guard !gone.isEmpty else { return effects }
    // Last, so that work this action started for an element it removed is cancelled too, and so
    // is the work of elements another reducer removed since this one last ran.
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
