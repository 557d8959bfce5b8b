import Foundation

/// A one-line description of an action by its cases, the way the Composable Architecture prints
/// actions in its failure messages: `Feature.Action.path(.popFrom(id:))`, or `.popFrom(id:)`
/// when `abbreviated`.
///
/// Only the cases show: payloads that are not enums or tuples print as nothing, so the text
/// stays short and stable. A value that describes itself for debugging prints that instead.
func debugCaseOutput(_ value: Any, abbreviated: Bool = false) -> String {
  if let value = value as? any CustomDebugStringConvertible {
    return value.debugDescription
  }
  return (abbreviated ? "" : shortTypeName(type(of: value))) + caseOutput(value)
}

private func caseOutput(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .enum:
    guard let payload = mirror.children.first else {
      // A case without a payload prints as its name, unless it only prints its type's name.
      let printed = "\(value)"
      return printed == shortTypeName(type(of: value)) ? "" : ".\(printed)"
    }
    let inner = caseOutput(payload.value)
    return ".\(payload.label ?? "")" + (inner.isEmpty ? "" : "(\(inner))")
  case .tuple:
    return mirror.children.map { label, value in
      let inner = caseOutput(value)
      let name = label.map { isPositionalLabel($0) ? "_:" : "\($0):" } ?? ""
      return name + (inner.isEmpty ? "" : " \(inner)")
    }
    .joined(separator: ", ")
  default:
    return ""
  }
}

/// Whether a tuple label is a position (`.0`, `1`) rather than a name.
private func isPositionalLabel(_ label: String) -> Bool {
  label.allSatisfy { $0 == "." || $0.isNumber }
}

/// A type's name without its module and generic arguments: `RootFeature.Path.Action`.
func shortTypeName(_ type: Any.Type) -> String {
  var name = String(reflecting: type)
  // Types declared inside a function carry an anonymous context; drop it.
  let anonymousContext = #"\(unknown context at \$[0-9a-fA-F]+\)\."#
  while let range = name.range(of: anonymousContext, options: .regularExpression) {
    name.removeSubrange(range)
  }
  if let generics = name.firstIndex(of: "<") {
    name = String(name[..<generics])
  }
  // The first component is the module.
  if let dot = name.firstIndex(of: "."), name != "()" {
    name = String(name[name.index(after: dot)...])
  }
  return name
}
