import StackJournalCore

/// What is presented, in the words `show` and `log` use, for a program's own summary (the
/// `demo` command's): `presented alert "…" over #4 of path (path[#4].numberFact.alert)`.
public enum PresentationText {
  /// A change to a presentation, as `log` says it.
  public static func summary(of change: StackChange) -> String {
    StackRendering.presentationSummary(change)
  }

  /// Each presentation among a moment's records, as `show` lists it.
  public static func lines(_ records: [StackRecord]) -> [String] {
    ShownPresentation.all(in: records).map(\.line)
  }
}
