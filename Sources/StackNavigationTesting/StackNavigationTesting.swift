// The product a test target adds beside its app: it brings IssueReporting's test support, so
// that TestStore failures and misuse reports fail Swift Testing and XCTest tests, and re-exports
// StackNavigation so `import StackNavigation` or `import StackNavigationTesting` both work.
@_exported import StackNavigation
