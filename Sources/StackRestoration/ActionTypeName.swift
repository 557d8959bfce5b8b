import StackNavigation

/// The journal type of an action: its case path, such as
/// `path.element.counter.incrementButtonTapped`.
///
/// The name of each enum case, descending into a case's associated value when it is itself an
/// enum (for a tuple of associated values, into the last one that is an enum). Reflection is
/// costly, so it is spared where the answer is known otherwise: the enums the `@Reducer` macro
/// sees, `StackAction` and `RouterAction` name their own cases; other enums (an action
/// written without the macro, a `@CasePathable` enum) are read from their type's metadata, each
/// case checked once against its mirror. What that cannot read (an `indirect` case, an enum with
/// its own mirror or description) is read through its mirror, with the same result.
public func actionTypeName(_ action: Any) -> String {
  _JournalCaseName.of(action)
}
