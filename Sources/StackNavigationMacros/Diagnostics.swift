import SwiftDiagnostics

/// A diagnostic of this package's macros: an error with a message that says what to write.
struct MacroDiagnostic: DiagnosticMessage {
  let message: String
  let id: String

  var diagnosticID: MessageID { MessageID(domain: "StackNavigationMacros", id: id) }
  var severity: DiagnosticSeverity { .error }

  static let reducerOnUnsupportedType = MacroDiagnostic(
    message: """
      '@Reducer' applies to a struct (a feature) or an enum of features \
      ('@Reducer enum Path { case counter(CounterFeature) }')
      """,
    id: "reducerOnUnsupportedType")

  static func memberAlreadyDeclared(_ name: String) -> MacroDiagnostic {
    MacroDiagnostic(
      message: """
        '@Reducer' enum generates '\(name)' from its cases; remove this declaration
        """,
      id: "memberAlreadyDeclared")
  }

  static let observableStateOnUnsupportedType = MacroDiagnostic(
    message: "'@ObservableState' applies to a feature's state: a struct or an enum",
    id: "observableStateOnUnsupportedType")
}
