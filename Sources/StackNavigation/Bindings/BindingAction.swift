/// An action that writes a value into a field of a feature's state, as a control bound to the
/// state sends it: `.binding(.set(\.syncUp, syncUp))`.
///
/// A feature's `Action` conforms to ``BindableAction`` with a `binding` case, and its body runs
/// ``BindingReducer`` to apply the writes. A test sends one through the case key path of the
/// field: `store.send(\.binding.syncUp, syncUp)`.
public struct BindingAction<Root>: CasePathable, Equatable, @unchecked Sendable {
  /// The field written.
  public let keyPath: PartialKeyPath<Root>
  /// Writes the value.
  let set: @Sendable (inout Root) -> Void
  /// The value written (`Sendable`, kept as `Any` so that actions of any field compare).
  let value: Any
  let valueIsEqualTo: @Sendable (Any) -> Bool

  init<Value: Equatable & Sendable>(keyPath: WritableKeyPath<Root, Value>, value: Value) {
    // A key path is immutable and its parts are sendable when the root is written through it.
    nonisolated(unsafe) let keyPath = keyPath
    self.keyPath = keyPath
    self.set = { $0[keyPath: keyPath] = value }
    self.value = value
    self.valueIsEqualTo = { $0 as? Value == value }
  }

  /// An action that writes `value` into the field at `keyPath`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>,
    _ value: Value
  ) -> Self {
    Self(keyPath: keyPath, value: value)
  }

  /// Matches a binding action by its field: `case .binding(\.syncUp):`.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    keyPath == action.keyPath
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.valueIsEqualTo(rhs.value)
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of a binding action: one per field of the state, `\.binding.syncUp`.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    public subscript<Value: Equatable & Sendable>(
      dynamicMember keyPath: WritableKeyPath<Root, Value>
    ) -> AnyCasePath<BindingAction, Value> {
      nonisolated(unsafe) let keyPath = keyPath
      return AnyCasePath(
        embed: { .set(keyPath, $0) },
        extract: { $0.keyPath == keyPath ? $0.value as? Value : nil }
      )
    }
  }
}

extension BindingAction: CustomDumpStringConvertible {
  public var customDumpDescription: String {
    var description = ".set("
    customDump(keyPath, to: &description, maxDepth: 0)
    description.append(", ")
    customDump(value, to: &description, maxDepth: 0)
    description.append(")")
    return description
  }
}

/// An action with a case that holds a ``BindingAction`` of the feature's state:
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case addAttendeeButtonTapped
/// }
/// ```
public protocol BindableAction {
  /// The state the binding actions write to.
  associatedtype State

  /// The case that holds a binding action.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action this action holds, if it is the binding case.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  public var binding: BindingAction<State>? {
    AnyCasePath(unsafe: Self.binding).extract(from: self)
  }

  /// The binding case writing `value` into the field at `keyPath`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>,
    _ value: Value
  ) -> Self {
    binding(.set(keyPath, value))
  }
}

/// Applies the writes of a feature's binding actions to its state; run it before the reducer
/// that reacts to them:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in … }
/// }
/// ```
public struct BindingReducer<State, Action: BindableAction>: Reducer
where Action.State == State {
  /// A reducer that applies the binding actions of a feature's `Action`.
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let binding = action.binding else { return .none }
    binding.set(&state)
    return .none
  }
}
