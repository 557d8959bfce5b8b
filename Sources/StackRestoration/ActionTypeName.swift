import StackNavigation

/// The journal type of an action: its case path, such as
/// `path.element.counter.incrementButtonTapped`.
///
/// The name of each enum case, descending into a case's associated value when it is itself an
/// enum (for a tuple of associated values, into the last one that is an enum). Reflection is the
/// costliest part of recording an action, so it is spared where the answer is known otherwise:
/// the enums the `@Reducer` macro sees, ``StackAction`` and ``RouterAction`` name their own
/// cases, and a case without associated values is named once per type and case, then looked up.
/// Other enums (an action written without the macro) are read through their mirrors, with the
/// same result.
public func actionTypeName(_ action: Any) -> String {
  _JournalCaseName.of(action)
}
