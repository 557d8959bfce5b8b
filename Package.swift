// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "StackJournal",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "StackNavigation", targets: ["StackNavigation"]),
    .library(name: "StackNavigationTesting", targets: ["StackNavigationTesting"]),
    .library(name: "StackJournalCore", targets: ["StackJournalCore"]),
    .library(name: "StackStorage", targets: ["StackStorage"]),
    .library(name: "StackRestoration", targets: ["StackRestoration"]),
    .library(name: "StackJournalCLI", targets: ["StackJournalCLI"]),
    .library(name: "StackStoragePostgres", targets: ["StackStoragePostgres"]),
    .executable(name: "stackjournal", targets: ["stackjournal"]),
  ],
  // `swift build --traits PostgreSQL` adds the PostgreSQL backend; without the trait nothing of
  // postgres-nio or SwiftNIO is compiled, so the default build stays as lean as before.
  traits: [
    .trait(
      name: "PostgreSQL",
      description: "The PostgreSQL journal backend (StackStoragePostgres) and `--db postgres://…`."
    )
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    // `@Dependency(\.mainQueue)` and `DispatchQueue.test`, as TCA's features use them: on Linux
    // the schedulers are built on OpenCombine.
    .package(
      url: "https://github.com/pointfreeco/combine-schedulers", from: "1.2.2",
      traits: ["OpenCombineSchedulers"]),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    // SyncUps' models tag their IDs (`Tagged<Self, UUID>`); only that test example uses it.
    .package(url: "https://github.com/pointfreeco/swift-tagged", from: "0.10.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"604.0.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    // The journals log through a `Logger` their opener passes (discarding by default).
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // `swift package generate-documentation`: the modules' DocC catalogues (a plugin; nothing
    // of it is linked into a product).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    .target(
      name: "StackNavigation",
      dependencies: [
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "XCTestDynamicOverlay", package: "xctest-dynamic-overlay"),
        "StackNavigationMacros",
      ]
    ),
    .macro(
      name: "StackNavigationMacros",
      dependencies: [
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
      ]
    ),
    // What a test target adds so that TestStore failures fail Swift Testing and XCTest tests:
    // IssueReporting's test support, which links XCTest and Testing (never production code).
    .target(
      name: "StackNavigationTesting",
      dependencies: [
        "StackNavigation",
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    .target(
      name: "StackJournalMigrations",
      path: "Migrations",
      exclude: ["README.md", "postgres"],
      resources: [
        .embedInCode("0001_initial.sql"),
        .embedInCode("0002_clustered_rows.sql"),
        .embedInCode("0003_time_without_index.sql"),
        .embedInCode("0004_journal_by_number.sql"),
        .embedInCode("0005_presented_destinations.sql"),
        .embedInCode("0006_journaled_draws.sql"),
      ]
    ),
    // The journal model every engine shares: records, deltas and the one function that applies
    // them, paths, the tracker, the export format, errors, times and JSON. No database here.
    .target(
      name: "StackJournalCore",
      dependencies: ["StackNavigation"]
    ),
    // The SQLite engine (GRDB), with its migrations.
    .target(
      name: "StackStorage",
      dependencies: [
        "StackJournalCore",
        "StackNavigation",
        "StackJournalMigrations",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "GRDB", package: "GRDB.swift"),
        // ReadOnlyConnection opens files through SQLite's C interface.
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The PostgreSQL backend. Without the `PostgreSQL` trait its sources compile to nothing and
    // it depends on nothing of postgres-nio.
    .target(
      name: "StackStoragePostgres",
      dependencies: [
        "StackNavigation",
        "StackJournalCore",
        "StackJournalPostgresMigrations",
        .product(
          name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
        .product(
          name: "_ConnectionPoolModule", package: "postgres-nio",
          condition: .when(traits: ["PostgreSQL"])),
        .product(
          name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"])),
      ]
    ),
    .target(
      name: "StackJournalPostgresMigrations",
      path: "Migrations/postgres",
      exclude: ["README.md"],
      resources: [
        .embedInCode("0001_initial.sql"),
        .embedInCode("0002_committed_append.sql"),
        .embedInCode("0003_checked_stack_changes.sql"),
        .embedInCode("0004_presented_destinations.sql"),
        .embedInCode("0005_journaled_draws.sql"),
      ]
    ),
    .target(
      name: "StackRestoration",
      dependencies: ["StackJournalCore", "StackNavigation"]
    ),
    .target(
      name: "StackJournalCLI",
      dependencies: [
        "StackJournalCore", "StackNavigation", "StackStorage", "StackRestoration",
        // Compiles to nothing without the `PostgreSQL` trait.
        "StackStoragePostgres",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      resources: [
        .embedInCode("Resources/report.html"),
        .embedInCode("Resources/report.css"),
        // The page's script, in parts that ReportAssets joins in its order.
        .embedInCode("Resources/report-delta.js"),
        .embedInCode("Resources/report-data.js"),
        .embedInCode("Resources/report-text.js"),
        .embedInCode("Resources/report-session.js"),
        .embedInCode("Resources/report-selection.js"),
        .embedInCode("Resources/report-moment.js"),
        .embedInCode("Resources/report-entries.js"),
        .embedInCode("Resources/report-overview.js"),
        .embedInCode("Resources/report-controls.js"),
      ]
    ),
    // The demo features (a counter, a number fact, coordinators) and their script: the deep
    // link and the random-action policy that `demo`, the bench and the recorder share.
    .target(
      name: "StackJournalDemo",
      dependencies: ["StackNavigation"]
    ),
    .executableTarget(
      name: "stackjournal",
      dependencies: [
        "StackJournalCLI", "StackJournalDemo", "StackNavigation", "StackStorage",
        "StackRestoration", "StackStoragePostgres",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Test plumbing only: temporary files, running the built binaries, collecting issues.
    .target(
      name: "StackJournalTestSupport",
      dependencies: [
        "StackNavigation", "StackStorage", "StackRestoration", "StackStoragePostgres",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "stackjournal-bench",
      dependencies: [
        "StackJournalDemo", "StackNavigation", "StackRestoration", "StackStorage",
        "StackStoragePostgres",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    .executableTarget(
      name: "stackjournal-recorder",
      dependencies: [
        "StackJournalDemo", "StackRestoration", "StackStorage", "StackStoragePostgres",
      ]
    ),
    .testTarget(
      name: "StackNavigationTests",
      dependencies: [
        "StackNavigation", "StackNavigationTesting", "StackJournalDemo", "StackJournalTestSupport",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    // The Composable Architecture's StackReducerTests as it writes them (its module name, so its
    // matchers' `#fileID`s match too).
    .testTarget(
      name: "ComposableArchitectureTests",
      dependencies: [
        "StackNavigation", "StackNavigationTesting",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    // Code written for TCA by others, as written: TCA's NavigationStack case study and its
    // FactClient, TCACoordinators' example features and its own tests (views removed).
    .testTarget(
      name: "ThirdPartyExampleTests",
      dependencies: ["StackNavigation", "StackNavigationTesting"]
    ),
    // The Composable Architecture's SyncUps app (1.9.3) and its unit tests, as TCA writes them,
    // in upstream's Swift 5 mode with complete concurrency checking; views kept out on Linux.
    .target(
      name: "SyncUps",
      dependencies: [
        "StackNavigation",
        .product(name: "Tagged", package: "swift-tagged"),
      ],
      path: "Tests/SyncUps/SyncUps",
      swiftSettings: [.swiftLanguageMode(.v5), .enableExperimentalFeature("StrictConcurrency")]
    ),
    .testTarget(
      name: "SyncUpsTests",
      dependencies: ["SyncUps", "StackNavigation", "StackNavigationTesting"],
      path: "Tests/SyncUps/SyncUpsTests",
      swiftSettings: [.swiftLanguageMode(.v5), .enableExperimentalFeature("StrictConcurrency")]
    ),
    // SyncUps made durable: its root on a RecordingStore, restored, reopened and shown by the CLI.
    .testTarget(
      name: "SyncUpsDurableTests",
      dependencies: [
        "SyncUps", "StackNavigation", "StackRestoration", "StackStorage",
        "StackJournalTestSupport",
        // `show` is run as the built binary: built before the tests.
        "stackjournal",
      ],
      path: "Tests/SyncUps/SyncUpsDurableTests"
    ),
    .testTarget(
      name: "StackNavigationMacrosTests",
      // The tests compile sources against StackNavigation with the built plugin (see
      // MacroCompiler): depending on the macro target itself would make SwiftPM build the whole
      // test product a second time for the host.
      dependencies: ["StackNavigation"]
    ),
    // The seed article's code, as written, with nothing but the test product.
    .testTarget(
      name: "SeedArticleTests",
      dependencies: [
        "StackNavigation", "StackNavigationTesting", "StackStorage", "StackRestoration",
        "StackJournalTestSupport",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    // The journal core's own types, without a database.
    .testTarget(
      name: "StackJournalCoreTests",
      dependencies: ["StackJournalCore", "StackJournalDemo", "StackNavigation"]
    ),
    .testTarget(
      name: "StackStorageTests",
      dependencies: [
        "StackJournalCore", "StackStorage", "StackNavigation", "StackJournalDemo", "StackJournalTestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "StackRestorationTests",
      dependencies: [
        "StackJournalCore",
        "StackRestoration", "StackNavigation", "StackStorage", "StackJournalDemo",
        "StackJournalTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    // Runs without the trait too (the migration files); the rest needs `--traits PostgreSQL`.
    .testTarget(
      name: "StackStoragePostgresTests",
      dependencies: [
        "StackJournalCore",
        "StackStoragePostgres", "StackStorage", "StackJournalTestSupport",
        "StackJournalPostgresMigrations", "StackRestoration", "StackJournalDemo",
        // The process tests run the recorder.
        "stackjournal-recorder",
        .product(
          name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The CLI's parsers, option groups, reports and table printer, without running the binary;
    // the page's script in headless Chromium.
    .testTarget(
      name: "StackJournalCLIUnitTests",
      dependencies: [
        "StackJournalCore",
        "StackJournalCLI", "StackJournalDemo", "StackStorage", "StackJournalTestSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "StackJournalCLITests",
      dependencies: [
        "StackJournalDemo", "StackJournalTestSupport", "StackNavigation", "StackStorage",
        "StackRestoration", .product(name: "GRDB", package: "GRDB.swift"),
        // The tests run the built binaries: built before the tests.
        "stackjournal", "stackjournal-recorder",
      ]
    ),
    // Holds the README's table of targets to this file, through `swift package dump-package`.
    .testTarget(name: "PackageGraphTests"),
  ],
  swiftLanguageModes: [.v6]
)
