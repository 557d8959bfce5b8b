import Foundation
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

/// Given a journal of a form's bindings, `log` shows each as the form sends it.
final class BindingLogTests: CLITestCase {
  func testLogShowsABindingAsTheFeatureSendsIt() async throws {
    let path = directory.path("form.sqlite")
    do {
      let journal = try SQLiteJournal(path: path)
      let store = try await RecordingStore.open(
        session: "form", journal: journal, initialState: BindingForm.State()
      ) {
        BindingForm()
      }
      try await store.send(.binding(.set(\.title, "Retro"))).finish()
      try await store.send(.binding(.set(\.details, BindingForm.State.Details()))).finish()
      try await journal.close()
    }
    let result = try runCLI(["log", "form", "--db", path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 3, result.stdout)
    XCTAssertTrue(lines[1].hasSuffix(#".binding(.set(\.title, "Retro"))"#), "\(lines[1])")
    XCTAssertTrue(lines[2].hasSuffix(#".binding(.set(\.details, (title: "")))"#), "\(lines[2])")
  }
}
