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

  /// An action writing `value` at `keyPath`. The value is `Sendable` (``set(_:_:)`` requires it)
  /// or was just decoded (``init(from:)``, for a field whose type is not known to be `Sendable`
  /// where the state's table is built, as in a generic state): no one else holds it.
  init<Value: Equatable>(keyPath: WritableKeyPath<Root, Value>, value: Value) {
    // A key path is immutable and its parts are sendable when the root is written through it.
    nonisolated(unsafe) let keyPath = keyPath
    nonisolated(unsafe) let value = value
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

/// A binding is encoded by the name of its field, the value as the field's type encodes it:
/// `{"set":{"field":"title","value":"Standup"}}`. The state names its fields
/// (``_BindableFieldsProviding``, which `@ObservableState` conforms a struct to), so only a
/// binding of a top-level stored `var` whose type is `Codable` and `Equatable` can be
/// encoded: any other (`\.syncUp.title`, a field of a type that is not `Codable`) throws an
/// `EncodingError` that names it.
extension BindingAction: Encodable where Root: _BindableFieldsProviding {
  public func encode(to encoder: any Encoder) throws {
    let fields = _BindableFields<Root>.cached
    guard let field = fields.field(at: keyPath) else {
      throw fields.unnamedError(keyPath, codingPath: encoder.codingPath)
    }
    guard let coding = field.coding else {
      throw fields.notCodableError(field, codingPath: encoder.codingPath)
    }
    var container = encoder.container(keyedBy: BindingCodingKeys.self)
    var set = container.nestedContainer(keyedBy: BindingCodingKeys.self, forKey: .set)
    try set.encode(field.name, forKey: .field)
    try coding.encode(value, &set)
  }
}

/// Decodes what ``encode(to:)`` wrote: the field named is the state's field at the same key
/// path, so the decoded action equals the encoded one, matches the same case paths and writes
/// the same value.
extension BindingAction: Decodable where Root: _BindableFieldsProviding {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: BindingCodingKeys.self)
    let set = try container.nestedContainer(keyedBy: BindingCodingKeys.self, forKey: .set)
    let name = try set.decode(String.self, forKey: .field)
    guard let coding = _BindableFields<Root>.cached.field(named: name)?.coding else {
      throw DecodingError.dataCorruptedError(
        forKey: .field, in: set,
        debugDescription: """
          \(Root.self) has no field '\(name)' whose bindings decode (a top-level stored var of a \
          Codable and Equatable type).
          """)
    }
    self = try coding.decode(set)
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
