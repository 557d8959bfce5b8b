import Foundation
import StackJournalCLI
import StackStorage

/// How `demo` words what it recorded: paths for a shell, stacks and deltas on one line.
extension StackJournalTool.Demo {
  static func quoted(_ path: String) -> String {
    path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@".contains($0) }
      ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// `#0 counter 42 · #5 numberFact 7`.
  static func describe(_ stacks: [StackRecord]) -> String {
    let presented = PresentationText.lines(stacks).map { " · presented: " + $0 }.joined()
    let elements = stacks.filter { !$0.isPresentation }.flatMap { stack in
      stack.elements.map { element -> String in
        let summary = element.state.replacingOccurrences(
          of: "{\"\(element.caseName ?? "")\":{\"_0\":", with: "")
        return "\(element.id) \(element.caseName ?? "-") \(shorten(summary))"
      }
    }
    return (elements.isEmpty ? "(empty stack)" : elements.joined(separator: " · ")) + presented
  }

  private static func shorten(_ state: String) -> String {
    // {"count":42}}} → 42; {"fact":…,"isLoading":false,"number":42}}} → number 42, fact …
    if let count = state.firstMatch(of: /"count":(-?\d+)/) { return String(count.1) }
    if let number = state.firstMatch(of: /"number":(-?\d+)/) {
      return String(number.1) + (state.contains("\"fact\":\"") ? " (with its fact)" : "")
    }
    return state
  }

  static func summary(_ delta: StackDelta) -> String {
    delta.changes.map { change in
      if change.isPresentation { return PresentationText.summary(of: change) }
      var parts: [String] = []
      parts += change.pushed.map { "push \($0.id) \($0.caseName ?? "")" }
      parts += change.popped.map { "pop \($0)" }
      parts += change.changed.map { "change \($0.id)" }
      return parts.joined(separator: ", ")
    }.joined(separator: "; ")
  }
}
