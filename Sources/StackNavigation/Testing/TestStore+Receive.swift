import Foundation

// Asserting the actions effects send.

extension TestStore {
  /// Asserts that an effect sent an action in the given case, and how it changed the state.
  ///
  /// Waits up to `timeout` for the action while effects are running. With exhaustivity off,
  /// actions in other cases are skipped.
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await receive(
      matching: { $0[case: actionCase] != nil },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpected: dumpIndented,
      timeout: timeout, assert: expected,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action in the given case with the given value, and how it
  /// changed the state: `receive(\.path.popFrom, 0)`.
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await receive(
      matching: { $0[case: actionCase] == value },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpected: { received in
        var dump = ""
        if received[case: actionCase] != nil,
          let difference = diff(actionCase(value), received, format: .proportional)
        {
          dump = "\(difference.indent(by: 2))\n\n(Expected: −, Actual: +)"
        } else {
          customDump(received, to: &dump, indent: 2)
        }
        return dump
      },
      timeout: timeout, assert: expected,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent the given action, and how it changed the state.
  public func receive(
    _ action: Action,
    timeout: Duration? = nil,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    var expectedDump = ""
    customDump(action, to: &expectedDump, indent: 2)
    await receive(
      matching: { $0 == action },
      failureMessage: """
        Expected to receive the following action, but didn't:

        \(expectedDump)
        """,
      unexpected: { received in
        diff(action, received, format: .proportional)
          .map { "\($0.indent(by: 4))\n\n(Expected: −, Received: +)" }
          ?? """
          Expected:
          \(String(describing: action).indent(by: 2))

          Received:
          \(String(describing: received).indent(by: 2))
          """
      },
      timeout: timeout, assert: expected,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action the predicate accepts, and how it changed the state;
  /// for actions that are not `Equatable`:
  /// `receive { if case .response = $0 { true } else { false } }`.
  @_disfavoredOverload
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert expected: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: isMatching,
      failureMessage: "Expected to receive an action matching predicate, but didn't get one.",
      unexpected: dumpIndented,
      timeout: timeout, assert: expected,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// An action as CustomDump writes it, indented by two spaces.
  func dumpIndented(_ action: Action) -> String {
    var dump = ""
    customDump(action, to: &dump, indent: 2)
    return dump
  }

  func receive(
    matching matches: (Action) -> Bool,
    failureMessage: @autoclosure () -> String,
    unexpected: (Action) -> String,
    timeout: Duration?,
    assert expected: ((inout State) throws -> Void)?,
    at here: SourceLocation
  ) async {
    if runtime.runningCount > 0 {
      await waitForReceivedAction(matching: matches, timeout: timeout, at: here)
    }
    guard !received.isEmpty else {
      fail(failureMessage(), at: here)
      return
    }
    if exhaustivity != .on {
      guard received.contains(where: { matches($0.action) }) else {
        fail(failureMessage(), at: here)
        return
      }
      var skipped: [Action] = []
      while let first = received.first, !matches(first.action) {
        received.removeFirst()
        skipped.append(first.action)
        state = first.state
      }
      if !skipped.isEmpty {
        var dump = ""
        customDump(skipped, to: &dump)
        report(
          """
          \(skipped.count) received action\(skipped.count == 1 ? " was" : "s were") skipped.

          \(dump)
          """, at: here)
      }
    }
    let (action, after) = received.removeFirst()
    if matches(action) {
      check(expected, before: state, after: after, at: here)
    } else {
      let later = received.contains { matches($0.action) }
      report(
        """
        Received unexpected action\(later ? " before this one" : ""):

        \(unexpected(action))
        """, at: here)
    }
    state = after
    // Time for the effects this action started to run, as the Composable Architecture's test
    // store gives them after each received action (an `ImmediateClock` sleep takes as long).
    await Task.megaYield()
  }

  /// Waits until an action arrives (when exhaustive) or a matching one (when not), or reports
  /// that none did within `timeout`.
  func waitForReceivedAction(
    matching matches: (Action) -> Bool,
    timeout: Duration?,
    at here: SourceLocation
  ) async {
    let duration = timeout ?? self.timeout
    let deadline = ContinuousClock.now + duration
    while true {
      switch exhaustivity {
      case .on where !received.isEmpty: return
      case .off where received.contains(where: { matches($0.action) }): return
      default: break
      }
      if ContinuousClock.now >= deadline { break }
      try? await Task.sleep(for: .milliseconds(1))
    }
    let advice =
      runtime.runningCount == 0
      ? """
        There are no in-flight effects that could deliver this action. Could the effect you \
        expected to deliver this action have been cancelled?
        """
      : waitingAdvice(duration: duration)
    fail(
      """
      Expected to receive \(exhaustivity == .on ? "an action" : "a matching action"), but \
      received none\(duration > .zero ? " after \(duration)" : "").

      \(advice)
      """, at: here)
  }
}
