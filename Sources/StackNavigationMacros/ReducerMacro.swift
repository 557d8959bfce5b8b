import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Reducer`, in its two forms.
///
/// On a struct (a feature) it adds the `Reducer` conformance, marks a nested `enum State` with
/// `@CasePathable` and `@dynamicMemberLookup`, and a nested `enum Action` with `@CasePathable`;
/// both get `@_JournalCaseNamed`, so that a journal names their cases without reflection.
///
/// On an enum of features, `@Reducer enum Path { case counter(CounterFeature) }`, it generates the
/// `State` and `Action` enums (one case per feature, named for a journal without reflection), the `body` that runs each case's feature,
/// `CaseScope` and `scope(_:)` for an exhaustive switch over a scoped store's case, and the
/// `CaseReducer` conformance that lets `forEach(\.path, action: \.path)` omit its destination.
public enum ReducerMacro {}

extension ReducerMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    // The diagnostics come from this role: the compiler always expands extensions, while it
    // expands members only when something looks them up, which a broken enum never gets to.
    let conformance: String
    if declaration.is(StructDeclSyntax.self) {
      conformance = "Reducer"
    } else if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      do {
        _ = try FeatureCase.cases(of: enumDecl)
      } catch let error as DiagnosticsError {
        for diagnostic in error.diagnostics { context.diagnose(diagnostic) }
        return []
      }
      conformance = "CaseReducer"
    } else {
      context.diagnose(
        Diagnostic(node: Syntax(node), message: MacroDiagnostic.reducerOnUnsupportedType))
      return []
    }
    // The compiler lists the conformances the type does not have yet; an explicit
    // `struct Feature: Reducer` already has it.
    if protocols.isEmpty {
      // Expanded without type information (as in expansion tests): read the declaration.
      if inherits(declaration, from: conformance) { return [] }
    } else if !protocols.contains(where: { lastComponent($0.trimmedDescription) == conformance }) {
      return []
    }
    // An extension macro states every conformance it adds, the inherited `Reducer` too.
    let conformances =
      conformance == "Reducer"
      ? "StackNavigation.Reducer" : "StackNavigation.CaseReducer, StackNavigation.Reducer"
    return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: conformances) {}")]
  }
}

extension ReducerMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(StructDeclSyntax.self) else { return [] }
    if let property = member.as(VariableDeclSyntax.self) {
      return bodyAttributes(for: property)
    }
    guard let nested = member.as(EnumDeclSyntax.self) else { return [] }
    var wanted: [(name: String, attribute: AttributeSyntax)]
    switch nested.name.text {
    case "State":
      wanted = [
        ("CasePathable", "@CasePaths.CasePathable"),
        ("dynamicMemberLookup", "@dynamicMemberLookup"),
      ]
    case "Action":
      wanted = [("CasePathable", "@CasePaths.CasePathable")]
    default:
      return []
    }
    // Names the enum's cases for a journal's action type without reflection.
    if JournalCaseNamedMacro.isReachable(nested) {
      wanted.append(("_JournalCaseNamed", "@StackNavigation._JournalCaseNamed"))
    }
    let present = Set(nested.attributes.compactMap(attributeName))
    return wanted.filter { !present.contains($0.name) }.map(\.attribute)
  }
}

extension ReducerMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    // A struct gets a body that does nothing when it has neither `body` nor
    // `reduce(into:action:)`, as a feature declared for its domain alone; anything else that is
    // not a well-formed enum of features was diagnosed by the extension role.
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      return hasReducerImplementation(structDecl) ? [] : [emptyBody(for: structDecl)]
    }
    guard let enumDecl = declaration.as(EnumDeclSyntax.self),
      let cases = try? FeatureCase.cases(of: enumDecl)
    else { return [] }
    return generatedMembers(
      for: enumDecl, cases: cases,
      stateConformances: synthesizedConformances(in: node, label: "state"),
      actionConformances: synthesizedConformances(in: node, label: "action"))
  }

  /// The protocols `@Reducer(state: .equatable, .codable, action: .sendable)` names for one of
  /// its labels, capitalized as the protocols are (`Equatable`, `Codable`).
  static func synthesizedConformances(in node: AttributeSyntax, label: String) -> [String] {
    guard case let .argumentList(arguments) = node.arguments,
      let start = arguments.firstIndex(where: { $0.label?.text == label })
    else { return [] }
    var names: [String] = []
    for argument in arguments[start...] {
      if argument.label != nil, argument.label?.text != label { break }
      if let member = argument.expression.as(MemberAccessExprSyntax.self) {
        let name = member.declName.baseName.text
        names.append(name.prefix(1).uppercased() + name.dropFirst())
      }
    }
    return names
  }

  static func generatedMembers(
    for enumDecl: EnumDeclSyntax, cases: [FeatureCase],
    stateConformances: [String] = [], actionConformances: [String] = []
  ) -> [DeclSyntax] {
    let access = accessModifier(of: enumDecl)
    let name = enumDecl.name.trimmed.text
    func lines(_ items: [String], indent: Int) -> String {
      items.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
    // Continuation lines carry their final indentation: an interpolated string is not re-indented.
    // Each case's paths as closures: case key paths would be instantiated, with their generic
    // arguments resolved by name, each time the body is built (once per action).
    let features = cases.filter(\.isFeature)
    let scopes = features.map {
      """
      StackNavigation.Scope(
              _caseState: CasePaths.AnyCasePath(
                embed: { .\($0.name)($0) },
                extract: { if case let .\($0.name)(state) = $0 { state } else { nil } }
              ),
              action: CasePaths.AnyCasePath(
                embed: { .\($0.name)($0) },
                extract: { if case let .\($0.name)(action) = $0 { action } else { nil } }
              ),
              name: { \\Self.State.Cases.\($0.name) }
            ) {
              \($0.feature)()
            }
      """
    }
    let body =
      features.isEmpty
      ? "StackNavigation.EmptyReducer()"
      : "StackNavigation.CombineReducers {\n      \(lines(scopes, indent: 6))\n    }"
    let scopeSwitch =
      cases.isEmpty
      ? "switch state {}"
      : """
      switch state {
        \(lines(cases.map {
          $0.ephemeralAction != nil
          ? """
          case let .\($0.name)(state):
              return .\($0.name)(state)
          """
          : !$0.isFeature
          ? $0.stateOnlyScope
          : """
          case .\($0.name):
              return .\($0.name)(
                store.scope(state: \\Self.State.Cases.\($0.name), action: \\Self.Action.Cases.\($0.name))
              )
          """
        }, indent: 2))
        }
      """
    return [
      """
      @CasePaths.CasePathable
      @dynamicMemberLookup
      @StackNavigation._JournalCaseNamed
      \(raw: access)enum State: \(raw: (["StackNavigation.CaseReducerState"] + stateConformances).joined(separator: ", ")) {
        \(raw: access)typealias StateReducer = \(raw: name)
        \(raw: lines(cases.map { "case \($0.name)\($0.stateClause)" }, indent: 2))
      }
      """,
      """
      @CasePaths.CasePathable
      @StackNavigation._JournalCaseNamed
      \(raw: access)enum Action\(raw: actionConformances.isEmpty ? "" : ": " + actionConformances.joined(separator: ", ")) {
        \(raw: lines(cases.map { "case \($0.name)(\($0.actionType))" }, indent: 2))
      }
      """,
      """
      \(raw: access)typealias Body = StackNavigation.Reduce<Self.State, Self.Action>
      """,
      """
      \(raw: access)static var body: Body {
        return StackNavigation.Reduce(
          \(raw: body)
        )
      }
      """,
      """
      \(raw: access)enum CaseScope {
        \(raw: lines(cases.map {
          !$0.isFeature
            ? "case \($0.name)\($0.stateClause)"
            : "case \($0.name)(StackNavigation.ScopedStore<\($0.feature).State, \($0.feature).Action>)"
        }, indent: 2))
      }
      """,
      """
      \(raw: access)static func scope(
        _ store: StackNavigation.ScopedStore<Self.State, Self.Action>,
        state: Self.State
      ) -> CaseScope {
        \(raw: scopeSwitch)
      }
      """,
    ]
  }

  /// `public` or `package` when the enum is, so the generated members are as visible as it.
  static func accessModifier(of decl: some DeclGroupSyntax) -> String {
    for modifier in decl.modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.open): return "public "
      case .keyword(.package): return "package "
      default: continue
      }
    }
    return ""
  }
}

/// One case of a `@Reducer` enum: its name and the feature reducer it holds, or the alert or
/// dialog it shows, or the state it holds alone.
struct FeatureCase {
  let name: String
  let feature: String
  /// For `case alert(AlertState<Alert>)` (or `ConfirmationDialogState`): the action type its
  /// buttons send (`Alert`). Such a case holds the state itself and runs no reducer.
  var ephemeralAction: String? = nil
  /// For a case that holds state and no feature (`case meeting(Meeting, syncUp: SyncUp)`, or
  /// `case empty`): its parameters' labels and its parameter clause as written. Its action case
  /// holds `Never` and it runs no reducer, as in the Composable Architecture.
  var stateOnly: (labels: [String?], clause: String)? = nil

  /// Whether the case runs a feature's reducer.
  var isFeature: Bool { ephemeralAction == nil && stateOnly == nil }
  /// What follows the case's name in the `State` enum: `(Feature.State)`, `(AlertState<A>)`, or
  /// a state-only case's own clause.
  var stateClause: String {
    if let stateOnly { return stateOnly.clause }
    return ephemeralAction == nil ? "(\(feature).State)" : "(\(feature))"
  }
  /// The type the `Action` enum's case holds.
  var actionType: String {
    if stateOnly != nil { return "Swift.Never" }
    return ephemeralAction ?? "\(feature).Action"
  }
  /// A state-only case in `scope(_:state:)`: its values handed on as they are.
  var stateOnlyScope: String {
    guard let labels = stateOnly?.labels, !labels.isEmpty else {
      return "case .\(name):\n      return .\(name)"
    }
    let values = labels.indices.map { "v\($0)" }
    let arguments = zip(labels, values).map { label, value in
      label.map { "\($0): \(value)" } ?? value
    }
    return """
      case let .\(name)(\(values.joined(separator: ", "))):
          return .\(name)(\(arguments.joined(separator: ", ")))
      """
  }

  /// The enum's cases, or the diagnostics that say which member the macro would generate.
  static func cases(of enumDecl: EnumDeclSyntax) throws -> [FeatureCase] {
    var cases: [FeatureCase] = []
    var diagnostics: [Diagnostic] = []
    for member in enumDecl.memberBlock.members {
      if let nested = generatedName(of: member.decl) {
        diagnostics.append(
          Diagnostic(node: member.decl, message: MacroDiagnostic.memberAlreadyDeclared(nested)))
        continue
      }
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      for element in caseDecl.elements {
        let name = element.name.trimmed.text
        let parameters = element.parameterClause?.parameters
        if let parameters, parameters.count == 1, let parameter = parameters.first,
          parameter.firstName == nil, parameter.defaultValue == nil
        {
          if let action = ephemeralAction(of: parameter.type) {
            cases.append(
              FeatureCase(
                name: name, feature: parameter.type.trimmedDescription, ephemeralAction: action))
            continue
          }
          if isFeatureType(parameter.type) {
            cases.append(FeatureCase(name: name, feature: parameter.type.trimmedDescription))
            continue
          }
        }
        let labels = parameters.map { $0.map { $0.firstName.flatMap { $0.text == "_" ? nil : $0.text } } } ?? []
        cases.append(
          FeatureCase(
            name: name, feature: "",
            stateOnly: (labels, element.parameterClause?.trimmedDescription ?? "")))
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics: diagnostics) }
    return cases
  }

  /// The action of `AlertState<Action>` or `ConfirmationDialogState<Action>`, or nil.
  static func ephemeralAction(of type: TypeSyntax) -> String? {
    guard let identifier = type.as(IdentifierTypeSyntax.self),
      ["AlertState", "ConfirmationDialogState"].contains(identifier.name.text),
      let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
      let argument = arguments.first
    else { return nil }
    return argument.argument.trimmedDescription
  }

  /// A named type (`CounterFeature`, `Features.Counter`, `Wrapper<Int>`): what can be a reducer.
  /// Tuples, optionals, arrays, functions and existentials cannot (such a case holds state
  /// alone); nor can an alert or a dialog.
  static func isFeatureType(_ type: TypeSyntax) -> Bool {
    if ephemeralAction(of: type) != nil { return false }
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return identifier.name.text != "Self" && identifier.name.text != "Any"
    }
    return type.is(MemberTypeSyntax.self)
  }

  static func generatedName(of decl: DeclSyntax) -> String? {
    let generated: Set<String> = ["State", "Action", "Body", "CaseScope", "body", "scope"]
    let name: String?
    if let decl = decl.as(EnumDeclSyntax.self) {
      name = decl.name.text
    } else if let decl = decl.as(StructDeclSyntax.self) {
      name = decl.name.text
    } else if let decl = decl.as(TypeAliasDeclSyntax.self) {
      name = decl.name.text
    } else if let decl = decl.as(FunctionDeclSyntax.self) {
      name = decl.name.text
    } else if let decl = decl.as(VariableDeclSyntax.self) {
      name = decl.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    } else {
      name = nil
    }
    return name.flatMap { generated.contains($0) ? $0 : nil }
  }
}

/// The last component of an attribute's name: `CasePathable` for `@CasePaths.CasePathable`.
func attributeName(_ element: AttributeListSyntax.Element) -> String? {
  guard case let .attribute(attribute) = element else { return nil }
  return lastComponent(attribute.attributeName.trimmedDescription)
}

/// `Reducer` for `StackNavigation.Reducer`.
func lastComponent(_ name: String) -> String {
  name.split(separator: ".").last.map(String.init) ?? name
}

/// Whether a type's declaration lists `name` (or `Module.name`) among what it inherits from.
func inherits(_ declaration: some DeclGroupSyntax, from name: String) -> Bool {
  declaration.inheritanceClause?.inheritedTypes.contains {
    lastComponent($0.type.trimmedDescription) == name
  } ?? false
}
