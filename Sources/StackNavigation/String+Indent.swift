
extension String {
  func indent(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { indentation + $0 }
      .joined(separator: "\n")
  }
}
