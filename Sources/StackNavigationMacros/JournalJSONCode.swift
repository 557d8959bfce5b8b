import SwiftSyntax
import SwiftSyntaxBuilder

/// The `_JournalJSONWritable` conformance of an enum (for `@_JournalCaseNamed`) or a struct (for
/// `@ObservableState`): code that writes the JSON a synthesized `Encodable` conformance writes
/// through `JSONEncoder` with sorted keys.
///
/// An enum's case `name(label: value, value)` is `{"name":{"_1":…,"label":…}}`, a case without
/// values `{"name":{}}`; a struct is an object of its stored properties. Members are written in
/// the byte order of their keys, sorted here; a nil optional is left out. Nothing is generated
/// where the synthesized encoding may not be the type's: a type that declares its own coding
/// keys or `encode(to:)`, an enum with raw values, a struct with a property wrapper, a `lazy` or
/// tuple-pattern property, members inside `#if`, or a name outside ASCII; nor for a type with an
/// attribute that may isolate it to a global actor. The journal's encoder checks what is
/// generated against the type's `Encodable` before trusting it (an `encode(to:)` elsewhere is not
/// seen here).
enum JournalJSONCode {
  static func extensionDecl(
    for declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol
  ) throws -> ExtensionDeclSyntax? {
    guard !declaresOwnEncoding(declaration.memberBlock), hasOnlyKnownAttributes(declaration)
    else { return nil }
    let body: String
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      guard let switchCode = enumSwitch(enumDecl) else { return nil }
      body = switchCode
    } else if let structDecl = declaration.as(StructDeclSyntax.self) {
      guard let objectCode = structObject(structDecl) else { return nil }
      body = objectCode
    } else {
      return nil
    }
    let access = ReducerMacro.accessModifier(of: declaration)
    return try ExtensionDeclSyntax(
      """
      extension \(type.trimmed): StackNavigation._JournalJSONWritable {
        \(raw: access)func _writeJournalJSON(to json: inout StackNavigation._JournalJSON) throws {
          \(raw: body)
        }
      }
      """)
  }

  /// Whether every attribute of the type is one known not to isolate it: a type isolated to a
  /// global actor (`@MainActor`) cannot conform to the nonisolated `_JournalJSONWritable`.
  static func hasOnlyKnownAttributes(_ declaration: some DeclGroupSyntax) -> Bool {
    declaration.attributes.allSatisfy { element in
      guard let name = attributeName(element) else { return false }
      return knownAttributes.contains(name)
    }
  }

  private static let knownAttributes: Set<String> = [
    "ObservableState", "CasePathable", "dynamicMemberLookup", "_JournalCaseNamed", "Reducer",
    "frozen", "available", "usableFromInline", "Observable",
  ]

  /// Whether the type's members declare coding keys, `encode(to:)`, or something inside `#if`.
  private static func declaresOwnEncoding(_ members: MemberBlockSyntax) -> Bool {
    members.members.contains { member in
      let decl = member.decl
      if decl.is(IfConfigDeclSyntax.self) { return true }
      if let function = decl.as(FunctionDeclSyntax.self) {
        return function.name.text == "encode"
      }
      let nestedName =
        decl.as(EnumDeclSyntax.self)?.name.text ?? decl.as(StructDeclSyntax.self)?.name.text
        ?? decl.as(TypeAliasDeclSyntax.self)?.name.text
      return nestedName?.hasSuffix("CodingKeys") ?? false
    }
  }

  /// The `switch` writing each case, or nil.
  private static func enumSwitch(_ enumDecl: EnumDeclSyntax) -> String? {
    var lines: [String] = []
    var index = 0
    var hasValues = false
    for member in enumDecl.memberBlock.members {
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      for element in caseDecl.elements {
        if element.rawValue != nil { return nil }
        guard let name = asciiName(element.name) else { return nil }
        var pattern = ".\(element.name.trimmed.text)"
        var members: [(key: String, value: String)] = []
        if let parameters = element.parameterClause?.parameters {
          hasValues = true
          var bindings: [String] = []
          for (position, parameter) in parameters.enumerated() {
            let value = "v\(position)"
            bindings.append(value)
            if let label = parameter.firstName, label.tokenKind != .wildcard {
              guard let key = asciiName(label) else { return nil }
              members.append((key, value))
            } else {
              members.append(("_\(position)", value))
            }
          }
          pattern = "let \(pattern)(\(bindings.joined(separator: ", ")))"
        }
        var body = ["try json._case(self, \(index), \"\(name)\")"]
        body += sorted(members).map { "try json._member(\"\($0.key)\", \($0.value))" }
        body.append("json._endCase()")
        lines.append("case \(pattern):\n      " + body.joined(separator: "\n      "))
        index += 1
      }
    }
    // An enum without values may have a raw type, whose `Encodable` writes the raw value.
    if !hasValues, let inherited = enumDecl.inheritanceClause?.inheritedTypes.first,
      !knownProtocols.contains(lastComponent(inherited.type.trimmedDescription))
    {
      return nil
    }
    if lines.isEmpty { return "switch self {}" }
    return "switch self {\n    " + lines.joined(separator: "\n    ") + "\n    }"
  }

  /// The protocols an enum without values commonly lists first; anything else may be its raw
  /// type.
  private static let knownProtocols: Set<String> = [
    "Codable", "Encodable", "Decodable", "Equatable", "Hashable", "Sendable", "CaseIterable",
    "CasePathable", "Identifiable", "CustomStringConvertible", "Comparable",
  ]

  /// The object of a struct's stored properties, or nil.
  private static func structObject(_ structDecl: StructDeclSyntax) -> String? {
    var members: [(key: String, value: String)] = []
    for member in structDecl.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
      let isStatic = variable.modifiers.contains {
        $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
      }
      if isStatic { continue }
      if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) {
        return nil
      }
      // A presentation (`@Presents`, `@PresentationState`) is written through its wrapper, as
      // its synthesized `Encodable` writes it: that is where the journal finds what it presents.
      // Any other attribute may change the encoding.
      let isPresentation = isPresentationWrapper(variable.attributes)
      if !variable.attributes.isEmpty, !isPresentation { return nil }
      for binding in variable.bindings {
        if isComputed(binding) { continue }
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
          let key = asciiName(identifier.identifier)
        else { return nil }
        let name = identifier.identifier.trimmed.text
        if isPresentation {
          guard !name.hasPrefix("`") else { return nil }
          members.append((key, "self._\(name)"))
        } else {
          members.append((key, "self.\(name)"))
        }
      }
    }
    let body =
      ["try json._object(self)"]
      + sorted(members).map { "try json._member(\"\($0.key)\", \($0.value))" }
      + ["json._endObject()"]
    return body.joined(separator: "\n    ")
  }

  /// Whether a property's attributes are one `@Presents` or `@PresentationState`, without
  /// arguments.
  static func isPresentationWrapper(_ attributes: AttributeListSyntax) -> Bool {
    guard attributes.count == 1, case .attribute(let attribute) = attributes.first,
      attribute.arguments == nil
    else { return false }
    let name = attribute.attributeName.trimmedDescription
    return ["Presents", "PresentationState", "StackNavigation.Presents",
      "StackNavigation.PresentationState"].contains(name)
  }

  /// Whether a property is computed: a getter's body, or `get`/`set` accessors (`willSet` and
  /// `didSet` observe a stored one).
  static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
    guard let accessors = binding.accessorBlock?.accessors else { return false }
    guard let list = accessors.as(AccessorDeclListSyntax.self) else { return true }
    return list.contains {
      switch $0.accessorSpecifier.tokenKind {
      case .keyword(.willSet), .keyword(.didSet): return false
      default: return true
      }
    }
  }

  /// A name as `Encodable` spells it (without backticks), or nil outside ASCII letters, digits
  /// and underscores.
  private static func asciiName(_ token: TokenSyntax) -> String? {
    var name = token.trimmed.text
    if name.hasPrefix("`") { name = String(name.dropFirst().dropLast()) }
    let allowed = name.utf8.allSatisfy {
      ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
        || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
        || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_")
    }
    return allowed && !name.isEmpty ? name : nil
  }

  /// Members in the byte order of their keys (ASCII: `<` on strings is byte order).
  private static func sorted(_ members: [(key: String, value: String)]) -> [(
    key: String, value: String
  )] {
    members.sorted { $0.key < $1.key }
  }
}
