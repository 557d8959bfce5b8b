// Without IssueReporting's test support a failure cannot reach Swift Testing or XCTest on Linux:
// then reporting stops the process with the fix instead of letting the test pass.
import StackJournalTestSupport
import Testing

@testable import StackNavigation

@Suite struct TestSupportTests {
  @Test func thisTestProcessHasTheSupportLinked() {
    #expect(TestSupport.isLinked())
    #expect(!TestSupport.isMissingInTestProcess)
  }

  @Test func issuesCollectedByATestDoNotNeedTheSupport() {
    #expect(TestSupport.goesToDefaultReporter(IssueReporters.current))
    let messages = collectIssues {
      #expect(!TestSupport.goesToDefaultReporter(IssueReporters.current))
      reportFailure("collected", testSupportMissing: true)
    }
    #expect(messages == ["collected"])
  }

  #if !canImport(Darwin)
    @Test func aFailureWithoutTheSupportStopsTheProcess() async {
      await #expect(processExitsWith: .failure) {
        reportFailure("A state change does not match expectation", testSupportMissing: true)
      }
    }
  #endif
}
