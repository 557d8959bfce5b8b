import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_JournalCaseNamed`, which `@Reducer` adds to the enums it sees: conforms an enum to
/// `_JournalCaseNamed` with a `switch` that names each case and hands its associated values on,
/// so that recording an action needs no reflection to name it; and to `_JournalJSONWritable`
/// (``JournalJSONCode``), so that a journal writes its JSON without `Encodable`'s containers.
///
/// It generates nothing where it cannot see every case (a case inside `#if`) or where an
/// extension could not reach the enum (a `private` or `fileprivate` one): such an enum is named
/// by reflection, with the same result.
public enum JournalCaseNamedMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self), isReachable(enumDecl) else {
      return []
    }
    var extensions: [ExtensionDeclSyntax] = []
    if wants("_JournalCaseNamed", declaration, protocols), let cases = cases(of: enumDecl) {
      let access = ReducerMacro.accessModifier(of: enumDecl)
      let body =
        cases.isEmpty
        ? "switch self {}"
        : "switch self {\n    \(cases.map(\.line).joined(separator: "\n    "))\n    }"
      extensions.append(
        try ExtensionDeclSyntax(
          """
          extension \(type.trimmed): StackNavigation._JournalCaseNamed {
            \(raw: access)func _appendJournalCaseName(to name: inout StackNavigation._JournalCaseName) {
              \(raw: body)
            }
          }
          """))
    }
    if wants("_JournalJSONWritable", declaration, protocols),
      let json = try JournalJSONCode.extensionDecl(for: enumDecl, type: type)
    {
      extensions.append(json)
    }
    return extensions
  }

  /// Whether the type still lacks the conformance `name`: the compiler lists those it does not
  /// have yet (none, when it does not say).
  static func wants(
    _ name: String, _ declaration: some DeclGroupSyntax, _ protocols: [TypeSyntax]
  ) -> Bool {
    if protocols.isEmpty { return !inherits(declaration, from: name) }
    return protocols.contains { lastComponent($0.trimmedDescription) == name }
  }

  /// Whether an extension at file scope can conform the enum: not when it is private.
  static func isReachable(_ enumDecl: EnumDeclSyntax) -> Bool {
    !enumDecl.modifiers.contains {
      $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate)
    }
  }

  /// One `case` line of the generated `switch` for each case, or nil when a case may be hidden
  /// from it (inside `#if`).
  static func cases(of enumDecl: EnumDeclSyntax) -> [(name: String, line: String)]? {
    var cases: [(name: String, line: String)] = []
    for member in enumDecl.memberBlock.members {
      if member.decl.is(IfConfigDeclSyntax.self) { return nil }
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      for element in caseDecl.elements {
        let name = element.name.trimmed.text
        // The name as reflection spells it: without the backticks of `default`.
        let spelled = name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
        let literal = "\"\(spelled)\""
        guard let parameters = element.parameterClause?.parameters else {
          cases.append((spelled, "case .\(name): name._case(\(literal))"))
          continue
        }
        let values = parameters.indices.enumerated().map { index, _ in "v\(index)" }
        let line: String
        switch values.count {
        case 0: line = "case .\(name): name._case(\(literal), ())"
        case 1: line = "case let .\(name)(v0): name._case(\(literal), v0)"
        default:
          line =
            "case let .\(name)(\(values.joined(separator: ", "))): "
            + "name._case(\(literal), lastEnumOf: \(values.joined(separator: ", ")))"
        }
        cases.append((spelled, line))
      }
    }
    return cases
  }
}
