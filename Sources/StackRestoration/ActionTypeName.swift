/// The journal type of an action: its case path, such as
/// `path.element.counter.incrementButtonTapped`.
///
/// Read by reflection: the name of each enum case, descending into a case's associated value
/// when it is itself an enum (for `element(id:action:)`, into `action`).
public func actionTypeName(_ action: Any) -> String {
  var names: [String] = []
  var value = action
  while true {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { break }
    guard let child = mirror.children.first, let label = child.label else {
      names.append(String(describing: value))
      break
    }
    names.append(label)
    guard let next = enumPayload(of: child.value) else { break }
    value = next
  }
  return names.joined(separator: ".")
}

/// The enum inside an associated value: the value itself, or the last enum in a tuple.
private func enumPayload(of value: Any) -> Any? {
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .enum { return value }
  guard mirror.displayStyle == .tuple else { return nil }
  return mirror.children.reversed().first { Mirror(reflecting: $0.value).displayStyle == .enum }?
    .value
}
