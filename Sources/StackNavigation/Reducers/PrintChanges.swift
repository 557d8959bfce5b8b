import Foundation

/// How ``Reducer/_printChanges(_:)`` describes each action and what it did to the state.
public struct _ReducerPrinter<State, Action>: Sendable {
  let printChange:
    @Sendable (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void

  /// A printer that hands each change to `printChange`: the action, and the state before and
  /// after it.
  public init(
    printChange: @escaping @Sendable (
      _ receivedAction: Action, _ oldState: State, _ newState: State
    ) -> Void
  ) {
    self.printChange = printChange
  }

  /// "received action:", the action as CustomDump writes it, and the difference in state with
  /// unchanged elements collapsed ("… (3 unchanged)"), or "(No state changes)" — as the
  /// Composable Architecture prints it — given to `write` (standard output by default; a service
  /// passes its `Logger`'s `info`).
  public static func customDump(
    to write: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> Self {
    Self { action, oldState, newState in
      write(changeDescription(action: action, oldState: oldState, newState: newState))
    }
  }

  /// ``customDump(to:)`` to standard output.
  public static var customDump: Self { customDump() }

  /// Only the action's case, as `debugCaseOutput` writes it:
  /// "received action: Feature.Action.tap".
  public static func actionLabels(
    to write: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> Self {
    Self { action, _, _ in
      write("received action: \(debugCaseOutput(action))")
    }
  }

  /// ``actionLabels(to:)`` to standard output.
  public static var actionLabels: Self { actionLabels() }

  /// The text ``customDump(to:)`` writes for one action.
  static func changeDescription(action: Action, oldState: State, newState: State) -> String {
    var text = "received action:\n"
    CustomDump.customDump(action, to: &text, indent: 2)
    text.write("\n")
    text.write(diff(oldState, newState).map { "\($0)" } ?? "  (No state changes)")
    return text
  }
}

extension Reducer {
  /// Describes every action this reducer receives and how it changed the state, as the
  /// Composable Architecture's `_printChanges()` does:
  ///
  /// ```
  /// received action:
  ///   CounterStackFeature.Action.path(
  ///     .element(id: #3, action: .numberFact(.factResponse(…)))
  ///   )
  ///   CounterStackFeature.State(
  ///     path: [
  ///       … (3 unchanged),
  ///       #3: .numberFact(…)
  /// ```
  ///
  /// Pass `nil` to print nothing, or a printer of your own:
  /// `._printChanges(.customDump(to: { logger.info("\($0)") }))`.
  public func _printChanges(
    _ printer: _ReducerPrinter<State, Action>? = .customDump
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, printer: printer)
  }
}

/// The reducer ``Reducer/_printChanges(_:)`` builds.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: _ReducerPrinter<Base.State, Base.Action>?

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let printer else { return base.reduce(into: &state, action: action) }
    let oldState = state
    let effects = base.reduce(into: &state, action: action)
    printer.printChange(action, oldState, state)
    return effects
  }
}
