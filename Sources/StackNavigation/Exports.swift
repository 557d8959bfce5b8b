// `import StackNavigation` is enough to write features the way the seed documents do:
// `@CasePathable`, case key paths, `@Dependency`, `IdentifiedArrayOf`, `reportIssue` and
// `expectNoDifference` come along with it.
@_exported import CasePaths
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import IdentifiedCollections
@_exported import IssueReporting
