/// A store focused on one part of a parent store: reads the part's state and sends its actions
/// through the parent.
///
/// The headless counterpart of a screen: a service drives one feature of a stack with it.
///
/// ```swift
/// let counter = store.scope(\.path, action: \.path, id: 0, state: \.counter, action: \.counter)
/// try await counter.send(.incrementButtonTapped)
/// await counter.state?.count
/// ```
public struct ScopedStore<State: Sendable, Action: Sendable>: Sendable {
  let readState: @Sendable () async -> State?
  let sendAction: @Sendable (Action) async throws -> StoreTask

  /// The part's state, or `nil` when it is gone (for example, its element was popped).
  public var state: State? {
    get async { await readState() }
  }

  /// Sends an action of the part through the parent store.
  ///
  /// Throws ``ScopedStoreError`` when the part is gone, and whatever the parent's `send` throws.
  @discardableResult
  public func send(_ action: Action) async throws -> StoreTask {
    try await sendAction(action)
  }
}

/// The part a ``ScopedStore`` is focused on is no longer in the parent's state.
public struct ScopedStoreError: Error, CustomStringConvertible, Sendable {
  /// What is gone, e.g. `element #3 of the stack, in case counter`.
  public let part: String

  public var description: String {
    "The scoped store's \(part) is no longer in the state; the action was not sent."
  }
}

extension Store {
  /// A store focused on the element with the given ID of a stack, in one case of its state.
  public nonisolated func scope<ElementState, ElementAction, ChildState, ChildAction>(
    _ toStack: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>,
    id: StackElementID,
    state toChildState: CaseKeyPath<ElementState, ChildState>,
    action toChildAction: CaseKeyPath<ElementAction, ChildAction>
  ) -> ScopedStore<ChildState, ChildAction>
  where ElementState: CasePathable, ElementAction: CasePathable {
    let toStack = UncheckedSendable(toStack)
    let toStackAction = AnyCasePath(toStackAction)
    let toChildState = AnyCasePath(toChildState)
    let toChildAction = AnyCasePath(toChildAction)
    let part = "element \(id) of the stack"
    let read: @Sendable () async -> ChildState? = { [self] in
      await self.state[keyPath: toStack.value][id: id].flatMap(toChildState.extract(from:))
    }
    return ScopedStore(
      readState: read,
      sendAction: { [self] action in
        try await self.sendIfPresent(
          toStackAction.embed(.element(id: id, action: toChildAction.embed(action))),
          present: { state in
            state[keyPath: toStack.value][id: id].flatMap(toChildState.extract(from:)) != nil
          },
          part: part
        )
      }
    )
  }

  func sendIfPresent(
    _ action: Action,
    present: (State) -> Bool,
    part: String
  ) async throws -> StoreTask {
    try await send(action, if: present, otherwise: { ScopedStoreError(part: part) })
  }
}
