/// A state whose top-level fields a ``BindingAction`` can name in its JSON: `@ObservableState`
/// conforms a struct to it, listing its stored `var`s in ``_bindableFields``.
///
/// A ``BindingAction`` of such a state is `Codable`.
public protocol _BindableFieldsProviding {
  /// The state's top-level stored fields that a binding can write, by name.
  static var _bindableFields: _BindableFields<Self> { get }
}

/// The fields of a state a binding action names: each one's name, its key path, and how to
/// encode and decode its value when the value is `Codable`.
///
/// `@ObservableState` builds it, one call of `_field(_:_:)` per stored `var`; the overload taken
/// is the one for a `Codable & Equatable` value when the field's type is one, so the macro need
/// not know the types. (Not `Sendable` too: the compiler does not choose between overloads by a
/// missing `Sendable` conformance, so a generic field would fail to compile.)
public struct _BindableFields<Root> {
  var fields: [Field] = []

  /// An empty table.
  public init() {}

  /// Adds the field `name` at `keyPath`, whose value is encoded and decoded with it.
  public mutating func _field<Value: Codable & Equatable>(
    _ name: String, _ keyPath: WritableKeyPath<Root, Value>
  ) {
    fields.append(
      Field(
        name: name, keyPath: keyPath, valueType: Value.self,
        coding: Coding(
          encode: { value, container in
            guard let value = value as? Value else {
              throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                  codingPath: container.codingPath,
                  debugDescription: "The value of binding '\(name)' is not a \(Value.self)."))
            }
            try container.encode(value, forKey: .value)
          },
          decode: { container in
            BindingAction(keyPath: keyPath, value: try container.decode(Value.self, forKey: .value))
          })))
  }

  /// Adds the field `name` at `keyPath`, whose value is not `Codable` (or not `Equatable`): a
  /// binding of it is named in errors, and cannot be encoded.
  public mutating func _field<Value>(_ name: String, _ keyPath: WritableKeyPath<Root, Value>) {
    fields.append(Field(name: name, keyPath: keyPath, valueType: Value.self, coding: nil))
  }

  /// The field at `keyPath`, or nil when it is none of the state's top-level fields.
  func field(at keyPath: PartialKeyPath<Root>) -> Field? {
    fields.first { $0.keyPath == keyPath }
  }

  /// The field named `name`.
  func field(named name: String) -> Field? {
    fields.first { $0.name == name }
  }

  /// Why a binding of `keyPath`, which is none of the fields, cannot be encoded: it names the
  /// key path, the fields there are, and the field it is inside when its description shows it.
  func unnamedError(_ keyPath: PartialKeyPath<Root>, codingPath: [any CodingKey])
    -> EncodingError
  {
    let path = String(reflecting: keyPath)
    let listed = fields.isEmpty ? "none" : fields.map { "'\($0.name)'" }.joined(separator: ", ")
    let inside = fields.first { path.hasPrefix(String(reflecting: $0.keyPath) + ".") }
    let advice = inside.map { " Bind the whole field instead: .set(\\.\($0.name), …)." } ?? ""
    return EncodingError.invalidValue(
      keyPath,
      EncodingError.Context(
        codingPath: codingPath,
        debugDescription: """
          The binding of \(path) cannot be encoded: a binding is encoded by the name of a \
          top-level stored field of \(String(reflecting: Root.self)) (\(listed)).\(advice)
          """))
  }

  /// Why a binding of `field`, whose type is not `Codable` and `Equatable`, cannot be encoded.
  func notCodableError(_ field: Field, codingPath: [any CodingKey]) -> EncodingError {
    EncodingError.invalidValue(
      field.keyPath,
      EncodingError.Context(
        codingPath: codingPath,
        debugDescription: """
          The binding of '\(field.name)' of \(String(reflecting: Root.self)) cannot be encoded: \
          its type \(field.valueType) is not Codable and Equatable.
          """))
  }

  struct Field {
    let name: String
    let keyPath: PartialKeyPath<Root>
    let valueType: Any.Type
    /// How the value is encoded and decoded; nil when its type is not `Codable`.
    let coding: Coding?
  }

  struct Coding {
    let encode: (Any, inout KeyedEncodingContainer<BindingCodingKeys>) throws -> Void
    let decode: (KeyedDecodingContainer<BindingCodingKeys>) throws -> BindingAction<Root>
  }
}

extension _BindableFields where Root: _BindableFieldsProviding {
  /// `Root`'s table, built once: ``_BindableFieldsProviding/_bindableFields`` is computed (a
  /// generic state cannot store a static), and a form sends a binding per keystroke.
  static var cached: Self {
    let key = ObjectIdentifier(Root.self)
    if let table = bindableFieldTables[key] as? Self { return table }
    let table = Root._bindableFields
    bindableFieldTables[key] = table
    return table
  }
}

/// The tables built, by state type. A table holds names, key paths and closures that capture
/// only those and the value's type: nothing in it changes once built, so it is shared.
private let bindableFieldTables = LockedDictionary<ObjectIdentifier, Any>()

/// The keys of a binding action's JSON: `{"set":{"field":"title","value":…}}`.
enum BindingCodingKeys: String, CodingKey {
  case set
  case field
  case value
}
