import StackNavigation

/// How stacks break the rules of IDs, and how two lists of stacks differ: the wording that
/// verification and the reading of a session export share.
package enum StackComparison {
  /// A message when a stack holds an ID twice or an ID not below its next generation, or when a
  /// presented destination holds anything but `#0` alone with next ID 1.
  package static func idProblem(_ stack: StackRecord) -> String? {
    if let problem = presentationProblem(stack) { return problem }
    var seen = Set<StackElementID>()
    for element in stack.elements {
      guard seen.insert(element.id).inserted else {
        return "the stack `\(stack.path)` holds \(element.id) twice"
      }
      if element.id >= stack.nextID {
        return "the stack `\(stack.path)` holds \(element.id), not below its next ID "
          + "\(stack.nextID)"
      }
    }
    return nil
  }

  /// A message when `stack` is a presented destination that holds anything but `#0` alone with
  /// next ID 1 (see ``StackRecord/isPresentation``).
  package static func presentationProblem(_ stack: StackRecord) -> String? {
    guard stack.isPresentation, stack.nextID != 1 || stack.ids != [0] else { return nil }
    return "the presentation `\(StorageError.printable(stack.path))` holds "
      + "\(stack.ids.map { "#\($0.generation)" }) with next ID \(stack.nextID.generation), "
      + "not #0 alone with next ID 1"
  }

  /// A short description of how `found` differs from `expected`: a stack `found` has and
  /// `expected` lacks is extra.
  package static func difference(_ expected: [StackRecord], _ found: [StackRecord]) -> String {
    let old = Dictionary(expected.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    let new = Dictionary(found.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    var parts: [String] = []
    for path in Set(old.keys).union(new.keys).sorted() {
      let name = path.isEmpty ? "(root)" : path
      switch (old[path], new[path]) {
      case (nil, _?): parts.append("stack `\(name)` is extra")
      case (_?, nil): parts.append("stack `\(name)` is missing")
      case (let a?, let b?) where a != b:
        if a.nextID != b.nextID {
          parts.append("stack `\(name)` next ID \(a.nextID) vs \(b.nextID)")
        }
        if a.ids != b.ids {
          parts.append("stack `\(name)` IDs \(a.ids) vs \(b.ids)")
        } else if a.elements != b.elements {
          parts.append("stack `\(name)` element states differ")
        }
      default: break
      }
    }
    return parts.isEmpty ? "the stacks differ" : parts.joined(separator: "; ")
  }
}
