// The Composable Architecture's older spelling of an action's case, `/Action.path` (a case path
// found by reflection, from CasePaths), which its own tests and older apps still write. It works
// on an enum without `@CasePathable`. Deprecated there and here: case key paths
// (`\.path`) are checked by the compiler.

extension Reducer {
  /// Integrates a navigation stack, naming the stack's action with a case path:
  /// `.forEach(\.path, action: /Action.path) { Path() }`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.path'.")
  public func forEach<ElementState, ElementAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: AnyCasePath<Action, StackAction<ElementState, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination>
  where Destination.State == ElementState, Destination.Action == ElementAction {
    stackReducer(
      toStackState, toStackAction, destination(),
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension Scope {
  /// Scopes to one case of an enum state, naming the case and the child's action with case
  /// paths: `Scope(state: /State.counter, action: /Action.counter) { Counter() }`.
  @available(*, deprecated, message: "Use case key paths: 'state: \\.counter, action: \\.counter'.")
  public init<ChildState, ChildAction>(
    state toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      toChildState: .casePath(toChildState, ChildState.self), toChildAction: toChildAction,
      child: child(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension StackState {
  /// The element with the given ID in the case a case path names: `path[id: 0, case:
  /// /Path.State.counter]`. As with a case key path, modifying an element in another case is
  /// reported as an issue and changes nothing.
  @available(*, deprecated, message: "Use a case key path: 'case: \\.counter'.")
  public subscript<Case>(
    id id: StackElementID,
    case path: AnyCasePath<Element, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? {
    get {
      self[id: id].flatMap { path.extract(from: $0) }
    }
    _modify {
      yield &self[
        id: id, anyCase: path, fileID: fileID, filePath: filePath, line: line, column: column]
    }
  }
}

extension Reducer {
  /// Runs a child reducer on optional child state, naming the child's action with a case path:
  /// `.ifLet(\.child, action: /Action.child) { Child() }`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.child'.")
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped>
  where Wrapped.State == WrappedState, Wrapped.Action == WrappedAction {
    _IfLetReducer(
      parent: self, child: wrapped(), toChildState: toWrappedState,
      toChildAction: toWrappedAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Dismisses an alert or a dialog on the first action sent from it, naming the action with a
  /// case path: `.ifLet(\.alert, action: /Action.alert)`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.alert'.")
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    _IfLetReducer(
      parent: self, child: EmptyReducer(), toChildState: toWrappedState,
      toChildAction: toWrappedAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension Reducer {
  /// Runs a presented child's reducer, naming the parent's action with a case path:
  /// `.ifLet(\.$child, action: /Action.child) { Child() }`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.child'.")
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _PresentationReducer(
      base: self, toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction, destination: destination(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Presents an alert or a dialog, naming the parent's action with a case path:
  /// `.ifLet(\.$alert, action: /Action.alert)`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.alert'.")
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    ifLet(
      toPresentationState, action: toPresentationAction, destination: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension PresentationState {
  /// The presented state in the case a case path names: `$child[case: /Child.int]`.
  @available(*, deprecated, message: "Use a case key path: '[case: \\.int]'.")
  public subscript<Case>(
    case path: AnyCasePath<State, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? {
    get { wrappedValue.flatMap { path.extract(from: $0) } }
    _modify {
      yield &self[
        anyCase: path, fileID: fileID, filePath: filePath, line: line, column: column]
    }
  }
}

extension Scope {
  /// Scopes to a child's state at a key path, naming the child's action with a case path:
  /// `Scope(state: \.child, action: /Action.child) { Child() }`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.child'.")
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      toChildState: .keyPath(toChildState), toChildAction: toChildAction, child: child(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}
