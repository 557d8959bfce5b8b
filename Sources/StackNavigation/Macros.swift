/// Makes a struct a feature reducer, or an enum of features a reducer of all of them.
///
/// On a struct it adds the ``Reducer`` conformance and makes a nested `enum State` case-pathable
/// with dynamic member lookup (`state.counter` reads a case), and a nested `enum Action`
/// case-pathable:
///
/// ```swift
/// @Reducer
/// struct CounterFeature {
///   @ObservableState
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementButtonTapped }
///   var body: some Reducer<State, Action> { … }
/// }
/// ```
///
/// On an enum whose cases each hold one feature, it generates `State` and `Action` (a case per
/// feature), the `body` that runs each case's feature, and ``CaseReducer`` conformance, so
/// `forEach(\.path, action: \.path)` needs no destination:
///
/// ```swift
/// @Reducer
/// enum Path {
///   case addItem(AddFeature)
///   case detailItem(DetailFeature)
/// }
/// extension Path.State: Equatable, Codable {}
/// extension Path.Action: Codable {}
/// ```
@attached(
  member, names: named(State), named(Action), named(Body), named(body), named(CaseScope),
  named(scope))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer() =
  #externalMacro(module: "StackNavigationMacros", type: "ReducerMacro")

/// ``Reducer()`` on an enum of features, with the conformances to give the `State` and `Action`
/// enums it generates: `@Reducer(state: .equatable, .codable, action: .codable)`.
@attached(
  member, names: named(State), named(Action), named(Body), named(body), named(CaseScope),
  named(scope))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer(state: _SynthesizedConformance..., action: _SynthesizedConformance...) =
  #externalMacro(module: "StackNavigationMacros", type: "ReducerMacro")

/// A conformance ``Reducer(state:action:)`` gives the `State` or `Action` enum it generates.
public struct _SynthesizedConformance: Sendable {
  /// `Codable`.
  public static let codable = Self()
  /// `Decodable`.
  public static let decodable = Self()
  /// `Encodable`.
  public static let encodable = Self()
  /// `Equatable`.
  public static let equatable = Self()
  /// `Hashable`.
  public static let hashable = Self()
  /// `Sendable`.
  public static let sendable = Self()
}

/// Marks a feature's state as the Composable Architecture's article writes it.
///
/// There is no view layer to notify here, so it adds no members: `Equatable`, `Codable` and
/// `Sendable` are synthesized exactly as without it. Code written for SwiftUI keeps compiling.
/// On a struct it adds `_JournalJSONWritable`, so that a journal writes the state's JSON
/// without going through `Encodable`'s containers: the same JSON, at a fraction of the cost;
/// and `_BindableFieldsProviding`, a table of its top-level stored `var`s by which a
/// ``BindingAction`` of the state is `Codable`.
@attached(member)
@attached(
  extension, conformances: _JournalJSONWritable, _BindableFieldsProviding,
  names: named(_writeJournalJSON), named(_bindableFields))
public macro ObservableState() =
  #externalMacro(module: "StackNavigationMacros", type: "ObservableStateMacro")
