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
}
