extension StackState: CustomDumpReflectable {
  /// Dumps as `#id: element` pairs, bottom of the stack first.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: zip(storedIDs, storedElements).map { id, element in
        (label: String?.none, value: (key: AnyHashable(id), value: element as Any))
      },
      displayStyle: .dictionary
    )
  }
}

extension StackState: CustomStringConvertible {
  public var description: String {
    let pairs = zip(storedIDs, storedElements).map { "\($0): \($1)" }
    return "[\(pairs.joined(separator: ", "))] next \(nextID)"
  }
}
