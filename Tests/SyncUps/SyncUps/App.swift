// The Composable Architecture's SyncUps at tag 1.9.3 (Examples/SyncUps/SyncUps/App.swift),
// as TCA writes it, with these changes for Linux:
// * `import ComposableArchitecture` is `import StackNavigation`;
// * the app's `@main` scene is kept out where SwiftUI is missing (so is `import SwiftUI`, and Foundation is imported instead).
import StackNavigation
#if canImport(SwiftUI)
  import SwiftUI
#else
  import Foundation
#endif

#if canImport(SwiftUI)
@main
struct SyncUpsApp: App {
  let store = Store(initialState: AppFeature.State()) {
    AppFeature()
      ._printChanges()
  } withDependencies: {
    if ProcessInfo.processInfo.environment["UITesting"] == "true" {
      $0.dataManager = .mock()
    }
  }

  var body: some Scene {
    WindowGroup {
      // NB: This conditional is here only to facilitate UI testing so that we can mock out certain
      //     dependencies for the duration of the test (e.g. the data manager). We do not really
      //     recommend performing UI tests in general, but we do want to demonstrate how it can be
      //     done.
      if _XCTIsTesting {
        // NB: Don't run application when testing so that it doesn't interfere with tests.
        EmptyView()
      } else {
        AppView(store: store)
      }
    }
  }
}
#endif
