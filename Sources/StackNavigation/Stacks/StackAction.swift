/// An action of a navigation stack: a push, a pop, or an action of one element.
///
/// Hold it in the parent feature's action and integrate the stack with
/// ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)-(_,CaseKeyPath<Self.Action,StackAction<ElementState,ElementAction>>,_,_,_,_,_)``:
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
extension StackAction: Encodable where State: Encodable, Action: Encodable {
  /// Encodes the action as a synthesized encoding does: `{"element": {"id": 0, "action": …}}`,
  /// `{"popFrom": {"id": 0}}`, `{"push": {"id": 0, "state": …}}` (the synthesized `Decodable`
  /// reads it).
  ///
  /// Written by hand with keys declared outside the generic type: a synthesized encoding's keys
  /// are nested in `StackAction<State, Action>`, so each of its containers looked up their
  /// generic metadata and conformances again, on every action a journal records.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: StackActionCodingKeys.self)
    switch self {
    case let .element(id, action):
      var values = container.nestedContainer(
        keyedBy: StackActionElementCodingKeys.self, forKey: .element)
      try values.encode(id.generation, forKey: .id)
      try values.encode(action, forKey: .action)
    case let .popFrom(id):
      var values = container.nestedContainer(
        keyedBy: StackActionPopFromCodingKeys.self, forKey: .popFrom)
      try values.encode(id.generation, forKey: .id)
    case let .push(id, state):
      var values = container.nestedContainer(
        keyedBy: StackActionPushCodingKeys.self, forKey: .push)
      try values.encode(id.generation, forKey: .id)
      try values.encode(state, forKey: .state)
    }
  }
}

/// The keys of ``StackAction``'s encoding: its cases, and each case's values.
enum StackActionCodingKeys: String, CodingKey {
  case element, popFrom, push
}

enum StackActionElementCodingKeys: String, CodingKey {
  case id, action
}

enum StackActionPopFromCodingKeys: String, CodingKey {
  case id
}

enum StackActionPushCodingKeys: String, CodingKey {
  case id, state
}
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
