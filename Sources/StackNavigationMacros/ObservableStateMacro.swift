import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ObservableState`: marks a feature's state as the Composable Architecture's article writes it.
///
/// Without a view layer there is nothing to notify, so it adds no members and no conformances:
/// `Equatable`, `Codable` and `Sendable` synthesis work exactly as without it. It only checks that
/// it is attached to a struct or an enum.
public enum ObservableStateMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if !declaration.is(StructDeclSyntax.self) && !declaration.is(EnumDeclSyntax.self) {
      context.diagnose(
        Diagnostic(node: Syntax(node), message: MacroDiagnostic.observableStateOnUnsupportedType))
    }
    return []
  }
}
