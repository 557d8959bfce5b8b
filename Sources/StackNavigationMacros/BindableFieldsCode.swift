import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The `_BindableFieldsProviding` conformance `@ObservableState` gives a struct: a table of its
/// top-level stored `var`s, each by name and writable key path, through which a `BindingAction`
/// of the state is encoded and decoded (`{"set":{"field":"title","value":…}}`).
///
/// Each field is one call of `_field(name, \Self.name)`; the library's overloads pick, from the
/// field's type, whether its value can be encoded, so nothing here needs to know the types. Left
/// out are fields a binding from outside the type cannot write: `let`s, computed, `static`,
/// `lazy` and `private`/`fileprivate` (or `private(set)`) properties, properties with an
/// attribute other than `@Presents`/`@PresentationState`, and members inside `#if`. A binding
/// of a field left out is refused when it is encoded, with an error that names it.
enum BindableFieldsCode {
  static func extensionDecl(
    for structDecl: StructDeclSyntax, type: some TypeSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> ExtensionDeclSyntax? {
    guard JournalJSONCode.hasOnlyKnownAttributes(structDecl) else { return nil }
    let found = fields(of: structDecl)
    let lines =
      found.isEmpty
      ? ["StackNavigation._BindableFields<Self>()"]
      : ["var fields = StackNavigation._BindableFields<Self>()"]
        + found.map { "fields._field(\"\($0.name)\", \\Self.\($0.reference))" }
        + ["return fields"]
    // Inside a `private` or `fileprivate` type (a test's `private struct Feature`), the table's
    // type names a type file scope cannot see from an extension: it must say `fileprivate`.
    let enclosedPrivately = context.lexicalContext.contains { parent in
      parent.asProtocol(WithModifiersSyntax.self)?.modifiers.contains {
        $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate)
      } == true
    }
    let access = enclosedPrivately ? "fileprivate " : ReducerMacro.accessModifier(of: structDecl)
    return try ExtensionDeclSyntax(
      """
      extension \(type.trimmed): StackNavigation._BindableFieldsProviding {
        \(raw: access)static var _bindableFields: StackNavigation._BindableFields<Self> {
          \(raw: lines.joined(separator: "\n    "))
        }
      }
      """)
  }

  /// The fields a binding can write, in declaration order: the name (without backticks) and
  /// the name as a key path spells it.
  static func fields(of structDecl: StructDeclSyntax) -> [(name: String, reference: String)] {
    var fields: [(name: String, reference: String)] = []
    for member in structDecl.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        variable.bindingSpecifier.tokenKind == .keyword(.var),
        isWritableFromOutside(variable.modifiers),
        variable.attributes.isEmpty || JournalJSONCode.isPresentationWrapper(variable.attributes)
      else { continue }
      for binding in variable.bindings {
        guard !JournalJSONCode.isComputed(binding),
          let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
        else { continue }
        let reference = identifier.identifier.trimmed.text
        let name =
          reference.hasPrefix("`") ? String(reference.dropFirst().dropLast()) : reference
        fields.append((name, reference))
      }
    }
    return fields
  }

  /// Whether no modifier hides the property or its setter, or makes it a type's or lazy.
  private static func isWritableFromOutside(_ modifiers: DeclModifierListSyntax) -> Bool {
    !modifiers.contains {
      switch $0.name.tokenKind {
      case .keyword(.private), .keyword(.fileprivate), .keyword(.static), .keyword(.class),
        .keyword(.lazy):
        return true
      default:
        return false
      }
    }
  }
}
