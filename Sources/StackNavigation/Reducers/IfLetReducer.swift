/// What makes a child the same child for `ifLet`: where it lives, its type, its enum case and its
/// `Identifiable` ID. Its effects are cancelled when it stops being the same child (set to `nil`,
/// or replaced by another case or another ID).
struct ChildIdentity: NavigationEffectID, @unchecked Sendable {
  let keyPath: AnyKeyPath
  let type: ObjectIdentifier
  let caseName: String?
  let id: AnyHashable?

  init(_ value: Any, at keyPath: AnyKeyPath) {
    self.keyPath = keyPath
    self.type = ObjectIdentifier(Swift.type(of: value))
    let enumCase = StackNavigation.enumCase(of: value)
    self.caseName = enumCase?.name
    self.id = Self.identifier(of: value) ?? enumCase?.payload.flatMap(Self.identifier(of:))
  }

  private static func identifier(of value: Any) -> AnyHashable? {
    func open(_ value: some Identifiable) -> AnyHashable { AnyHashable(value.id) }
    return (value as? any Identifiable).map { open($0) }
  }
}

extension Reducer {
  /// Runs a child reducer on optional child state while it is not `nil`, before this reducer:
  /// `.ifLet(\.child, action: \.child) { Child() }`.
  ///
  /// The child's effects are cancelled when its state becomes `nil` or another child (another
  /// enum case or `Identifiable` ID); an alert or a dialog (`AlertState`,
  /// `ConfirmationDialogState`) is dismissed by the first action sent from it. A child action
  /// while the state is `nil` is reported.
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped>
  where Wrapped.State == WrappedState, Wrapped.Action == WrappedAction {
    _IfLetReducer(
      parent: self, child: wrapped(), toChildState: toWrappedState,
      toChildAction: AnyCasePath(toWrappedAction),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Dismisses an alert or a dialog held in optional state on the first action sent from it:
  /// `.ifLet(\.alert, action: \.alert)`.
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    _IfLetReducer(
      parent: self, child: EmptyReducer(), toChildState: toWrappedState,
      toChildAction: AnyCasePath(toWrappedAction),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` builds.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let childEffects = reduceChild(into: &state, action: action)
    let toChildState = self.toChildState
    let before = state[keyPath: toChildState].map { ChildIdentity($0, at: toChildState) }
    let parentEffects = parent.reduce(into: &state, action: action)
    let after = state[keyPath: toChildState].map { ChildIdentity($0, at: toChildState) }

    // An alert or a dialog is gone once an action came from it, unless the parent presented
    // another one meanwhile.
    if before == after, toChildAction.extract(from: action) != nil,
      let childState = state[keyPath: toChildState], isEphemeral(childState)
    {
      state[keyPath: toChildState] = nil
    }
    let cancelEffects: Effect<Parent.Action>
    if let before, before != after {
      cancelEffects = .cancel(id: before)
    } else {
      cancelEffects = .none
    }
    return childEffects.merge(with: parentEffects).merge(with: cancelEffects)
  }

  func reduceChild(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard let childState = state[keyPath: toChildState] else {
      reportFailure(
        """
        An "ifLet" at "\(location.fileID):\(location.line)" received a child action when child \
        state was "nil".

          Action:
        \(String(customDumping: action).indent(by: 4))

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer set child state to "nil" before this reducer ran. This reducer must run \
        before any other reducer sets child state to "nil". This ensures that child reducers can \
        handle their actions while their state is still available.

        An in-flight effect emitted this action when child state was "nil". While it may be \
        perfectly reasonable to ignore this action, consider canceling the associated effect \
        before child state becomes "nil", especially if it is a long-living effect.

        This action was sent to the store while state was "nil". Make sure that actions for this \
        reducer can only be sent from a store when state is non-"nil". In SwiftUI \
        applications, use "IfLetStore".
        """,
        fileID: location.fileID, filePath: location.filePath, line: location.line,
        column: location.column)
      return .none
    }
    let identity = ChildIdentity(childState, at: toChildState)
    let toChildAction = self.toChildAction
    let effect = withDependencies {
      $0.navigationIDPath.elements.append(AnyHashableSendable(identity))
    } operation: {
      child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
    }
    return effect.map { toChildAction.embed($0) }.cancellable(id: identity)
  }
}
