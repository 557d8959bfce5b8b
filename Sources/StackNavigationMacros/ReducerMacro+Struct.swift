import SwiftSyntax
import SwiftSyntaxBuilder

// A `@Reducer` struct that declares only its domain (`State` and `Action`) gets a body that does
// nothing, as a feature whose parent handles its actions.

extension ReducerMacro {
  /// Whether a struct implements the reducer itself: a `body` property or a
  /// `reduce(into:action:)` method among its members.
  static func hasReducerImplementation(_ structDecl: StructDeclSyntax) -> Bool {
    structDecl.memberBlock.members.contains { member in
      if let function = member.decl.as(FunctionDeclSyntax.self) {
        return function.name.text == "reduce"
      }
      if let variable = member.decl.as(VariableDeclSyntax.self) {
        return variable.bindings.contains {
          $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body"
        }
      }
      return false
    }
  }

  /// The body of a feature that only declares its domain: it changes nothing.
  static func emptyBody(for structDecl: StructDeclSyntax) -> DeclSyntax {
    let access = accessModifier(of: structDecl)
    return """
      \(raw: access)var body: some StackNavigation.Reducer<State, Action> {
        StackNavigation.EmptyReducer()
      }
      """
  }

  /// The builder for a struct's `body`: the `Reducer` conformance comes from an extension, where
  /// the compiler does not infer the requirement's `@ReducerBuilder` for the property, so a body
  /// of several reducers (`Scope(…)` then `Scope(…)`) needs it written out.
  static func bodyAttributes(for property: VariableDeclSyntax) -> [AttributeSyntax] {
    guard
      property.bindings.count == 1, let binding = property.bindings.first,
      binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body",
      binding.accessorBlock != nil,
      !property.attributes.contains(where: { attributeName($0) == "ReducerBuilder" })
    else { return [] }
    return ["@StackNavigation.ReducerBuilder<Self.State, Self.Action>"]
  }
}
