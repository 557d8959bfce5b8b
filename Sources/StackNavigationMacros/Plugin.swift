import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct StackNavigationMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    ReducerMacro.self,
    ObservableStateMacro.self,
    JournalCaseNamedMacro.self,
  ]
}
