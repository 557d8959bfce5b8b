/// The journal type of an action: its case path, such as
/// `path.element.counter.incrementButtonTapped`.
///
/// Read by reflection: the name of each enum case, descending into a case's associated value
/// when it is itself an enum (for `element(id:action:)`, into `action`). Each value is reflected
/// once: a `Mirror` costs more than the rest of this together.
public func actionTypeName(_ action: Any) -> String {
  var names: [String] = []
  var value = action
  var mirror = Mirror(reflecting: action)
  while mirror.displayStyle == .enum {
    guard let child = mirror.children.first, let label = child.label else {
      names.append(String(describing: value))
      break
    }
    names.append(label)
    guard let (next, nextMirror) = enumPayload(of: child.value) else { break }
    value = next
    mirror = nextMirror
  }
  return names.joined(separator: ".")
}

/// The enum inside an associated value, with its mirror: the value itself, or the last enum in a
/// tuple.
private func enumPayload(of value: Any) -> (Any, Mirror)? {
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .enum { return (value, mirror) }
  guard mirror.displayStyle == .tuple else { return nil }
  var last: (Any, Mirror)?
  for child in mirror.children {
    let childMirror = Mirror(reflecting: child.value)
    if childMirror.displayStyle == .enum { last = (child.value, childMirror) }
  }
  return last
}
