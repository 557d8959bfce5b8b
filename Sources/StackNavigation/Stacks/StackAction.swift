/// An action of a navigation stack: a push, a pop, or an action of one element.
///
/// Hold it in the parent feature's action and integrate the stack with
/// ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)``:
///
/// ```swift
/// enum Action {
///   case path(StackActionOf<Path>)
/// }
/// ```
public enum StackAction<State, Action> {
  /// An action sent to the element with the given ID.
  case element(id: StackElementID, action: Action)

  /// Pops the element with the given ID and every element above it.
  case popFrom(id: StackElementID)

  /// Pushes an element onto the stack under the given ID.
  case push(id: StackElementID, state: State)
}

/// The stack action of a reducer's domain: `StackActionOf<Path>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
extension StackAction: Encodable where State: Encodable, Action: Encodable {}
extension StackAction: Decodable where State: Decodable, Action: Decodable {}

extension StackAction: CasePathable {
  /// The case paths of a stack action, including `[id:]` to reach into one element.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of ``StackAction``: `element`, `popFrom`, `push` and `[id:]`.
  public struct AllCasePaths: CasePathReflectable, Sendable {
    /// The case path of a given action.
    public subscript(root: StackAction) -> PartialCaseKeyPath<StackAction> {
      switch root {
      case .element: return \.element
      case .popFrom: return \.popFrom
      case .push: return \.push
      }
    }

    /// The `element(id:action:)` case.
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: {
          guard case let .element(id, action) = $0 else { return nil }
          return (id, action)
        }
      )
    }

    /// The `popFrom(id:)` case.
    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      AnyCasePath(
        embed: { .popFrom(id: $0) },
        extract: {
          guard case let .popFrom(id) = $0 else { return nil }
          return id
        }
      )
    }

    /// The `push(id:state:)` case.
    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      AnyCasePath(
        embed: { .push(id: $0.id, state: $0.state) },
        extract: {
          guard case let .push(id, state) = $0 else { return nil }
          return (id, state)
        }
      )
    }

    /// The action of the element with the given ID: `\.path[id: 0].counter.incrementButtonTapped`.
    public subscript(id id: StackElementID) -> AnyCasePath<StackAction, Action> {
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case let .element(elementID, action) = $0, elementID == id else { return nil }
          return action
        }
      )
    }
  }
}

extension Case {
  /// A case key path to the action of one element of a stack:
  /// `\.path[id: 0].counter.incrementButtonTapped`.
  public subscript<ElementState, ElementAction>(
    id id: StackElementID
  ) -> Case<ElementAction> where Value == StackAction<ElementState, ElementAction> {
    self[dynamicMember: \.[id: id]]
  }
}
