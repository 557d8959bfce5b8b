@_spi(Internals) import CasePaths

/// Asserts that a stack element is in a case and modifies that case's state in place, as the
/// Composable Architecture's article writes stack assertions:
///
/// ```swift
/// await store.send(\.path[id: 0].counter.incrementButtonTapped) {
///   XCTModify(&$0.path[id: 0], case: \.counter) {
///     $0.count = 4
///   }
/// }
/// ```
///
/// Fails the test (and changes nothing) when the element is missing, is in another case, or the
/// closure leaves an `Equatable` state unchanged (but in a non-exhaustive `TestStore`'s
/// assertion, as in the Composable Architecture). Works in Swift Testing and XCTest alike.
public func XCTModify<Element: CasePathable, Case>(
  _ element: inout Element?,
  case keyPath: CaseKeyPath<Element, Case>,
  _ message: @autoclosure () -> String = "",
  _ body: (inout Case) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let suffix = message().isEmpty ? "" : " - \(message())"
  guard let current = element else {
    reportFailure(
      "XCTModify failed: expected an element in case \(Case.self)\(suffix), but it is missing.",
      fileID: fileID, filePath: filePath, line: line, column: column)
    return
  }
  guard var value = current[case: keyPath] else {
    reportFailure(
      """
      XCTModify failed: expected an element in case \(Case.self)\(suffix), but it is:

      \(String(customDumping: current).indent(by: 2))
      """,
      fileID: fileID, filePath: filePath, line: line, column: column)
    return
  }
  let before = value
  do {
    try body(&value)
  } catch {
    reportFailure(
      "XCTModify failed: the closure threw \(error)\(suffix).",
      fileID: fileID, filePath: filePath, line: line, column: column)
    return
  }
  // Inside a non-exhaustive TestStore's assertion a closure may leave the value as it is.
  if XCTModifyLocals.isExhaustive, let before = before as? any Equatable,
    before.isEqual(to: value)
  {
    reportFailure(
      "XCTModify failed: expected the closure to change the \(Case.self)\(suffix), but it did not.",
      fileID: fileID, filePath: filePath, line: line, column: column)
    return
  }
  element = keyPath(value)
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    (other as? Self) == self
  }
}
