import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ObservableState`: marks a feature's state as the Composable Architecture's article writes it.
///
/// Without a view layer there is nothing to notify, so it adds no members: `Equatable`, `Codable`
/// and `Sendable` synthesis work exactly as without it. It checks that it is attached to a struct
/// or an enum, and conforms a struct to `_JournalJSONWritable` and `_BindableFieldsProviding`
/// (below).
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

/// On a struct, `@ObservableState` adds `_JournalJSONWritable` (``JournalJSONCode``), so that a
/// journal writes the state's JSON without `Encodable`'s containers, and
/// `_BindableFieldsProviding` (``BindableFieldsCode``), the table of its fields by which a
/// `BindingAction` of it is encoded. Nothing is added to a private struct, which an extension at
/// file scope may not reach.
extension ObservableStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard let structDecl = declaration.as(StructDeclSyntax.self),
      !structDecl.modifiers.contains(where: {
        $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate)
      })
    else { return [] }
    var extensions: [ExtensionDeclSyntax] = []
    if JournalCaseNamedMacro.wants("_JournalJSONWritable", declaration, protocols),
      let json = try JournalJSONCode.extensionDecl(for: structDecl, type: type)
    {
      extensions.append(json)
    }
    if JournalCaseNamedMacro.wants("_BindableFieldsProviding", declaration, protocols),
      let fields = try BindableFieldsCode.extensionDecl(
        for: structDecl, type: type, in: context)
    {
      extensions.append(fields)
    }
    return extensions
  }
}
