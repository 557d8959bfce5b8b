/// Runs a child reducer on a part of the parent's state and the matching actions.
///
/// ```swift
/// Scope(state: \.counter, action: \.counter) { Counter() }
/// ```
///
/// With a case key path for `state`, the child runs only while the state is in that case; a
/// child action that arrives while the state is in another case is reported as an issue.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    /// The case path, and what a failure's message names it by (its key path, or the child
    /// state's type): described only then, as describing a key path costs more than running
    /// most reducers, and a scope is built again each time its parent's `body` is.
    case casePath(AnyCasePath<ParentState, Child.State>, Any)
    /// The case path, and what gives the name a failure's message names it by.
    case lazilyNamedCasePath(AnyCasePath<ParentState, Child.State>, () -> Any)
  }

  let toChildState: StatePath
  let toChildAction: AnyCasePath<ParentAction, Child.Action>
  let child: Child
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  init(
    toChildState: StatePath,
    toChildAction: AnyCasePath<ParentAction, Child.Action>,
    child: Child,
    location: SourceLocation
  ) {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child
    (self.fileID, self.filePath, self.line, self.column) =
      (location.fileID, location.filePath, location.line, location.column)
  }

  /// Scopes to a stored property of the parent's state.
  ///
  /// Disfavored so that, on an enum state with `@dynamicMemberLookup` (as `@Reducer` makes
  /// `enum State`), `Scope(state: \.counter, …)` means the case, not the dynamic member.
  @_disfavoredOverload
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
    (self.fileID, self.filePath, self.line, self.column) = (#fileID, #filePath, #line, #column)
  }

  /// Scopes to one case of an enum state.
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      toChildState: .casePath(AnyCasePath(toChildState), toChildState),
      toChildAction: AnyCasePath(toChildAction), child: child(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Scopes to one case of an enum state, for the body `@Reducer` generates for an enum of
  /// features: the case's paths are written as closures, which cost nothing to build, where
  /// case key paths, whose components have generic arguments, are instantiated each time a body
  /// is built: once per action. `name` gives what a failure's message names the case by (its
  /// case key path). Not meant to be written by hand.
  public init<ChildState, ChildAction>(
    _caseState toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    name: @escaping () -> Any,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      toChildState: .lazilyNamedCasePath(toChildState, name),
      toChildAction: toChildAction, child: child(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    let toParent = toChildAction
    switch toChildState {
    case let .keyPath(keyPath):
      return child.reduce(into: &state[keyPath: keyPath], action: childAction)
        .map { toParent.embed($0) }
    case let .casePath(casePath, name):
      return reduce(into: &state, action: action, childAction, casePath, name: { name })
    case let .lazilyNamedCasePath(casePath, name):
      return reduce(into: &state, action: action, childAction, casePath, name: name)
    }
  }

  private func reduce(
    into state: inout ParentState, action: ParentAction, _ childAction: Child.Action,
    _ casePath: AnyCasePath<ParentState, Child.State>, name: () -> Any
  ) -> Effect<ParentAction> {
    guard var childState = casePath.extract(from: state) else {
      let parentName = String(reflecting: ParentState.self).split(separator: ".").dropFirst()
        .joined(separator: ".")
      reportFailure(
        """
        A "Scope" at "\(fileID):\(line)" received a child action when child state was set to a \
        different case.

          Action:
            \(debugCaseOutput(action))
          State:
            \(debugCaseOutput(state))
          State case expected: \(String(describing: name()))

        This is generally considered an application logic error, and can happen for a few \
        reasons:

        A parent reducer set "\(parentName)" to a different case before the scoped reducer ran. \
        Child reducers must run before any parent reducer sets child state to a different case. \
        This ensures that child reducers can handle their actions while their state is still \
        available. Consider using "Reducer.ifCaseLet" to embed this child reducer in the parent \
        reducer that change its state to ensure the child reducer runs first.

        An in-flight effect emitted this action when child state was unavailable. While it may \
        be perfectly reasonable to ignore this action, consider canceling the associated effect \
        before child state changes to another case, especially if it is a long-living effect.

        This action was sent to the store while state was another case. Make sure that actions \
        for this reducer can only be sent from a store when state is set to the appropriate \
        case. In SwiftUI applications, use "SwitchStore".
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return .none
    }
    let effect = child.reduce(into: &childState, action: childAction)
    state = casePath.embed(childState)
    let toParent = toChildAction
    return effect.map { toParent.embed($0) }
  }
}
