// `import StackNavigation` is enough to write features the way the seed documents do:
// `@CasePathable`, case key paths, `@Dependency`, `@DependencyClient`, `IdentifiedArrayOf`,
// `reportIssue`, `expectNoDifference` and the schedulers behind `@Dependency(\.mainQueue)`
// (`DispatchQueue.test`, `AnySchedulerOf`) and the clocks behind `@Dependency(\.continuousClock)`
// (`TestClock`, `ImmediateClock`, `clock.timer(interval:)`) come along with it.
@_exported import CasePaths
@_exported import Clocks
@_exported import CombineSchedulers
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import DependenciesMacros
@_exported import IdentifiedCollections
@_exported import IssueReporting
// `XCTFail` in app code, as the Composable Architecture's features call it.
@_exported import XCTestDynamicOverlay

#if !canImport(Darwin)
  /// Nanoseconds per second, which Apple's platforms import from Dispatch and Linux does not:
  /// features and tests written for the Composable Architecture sleep with
  /// `Task.sleep(nanoseconds: NSEC_PER_SEC)`.
  public let NSEC_PER_SEC: UInt64 = 1_000_000_000
#endif
