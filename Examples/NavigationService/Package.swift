// swift-tools-version: 6.1
import PackageDescription

/// An HTTP service that keeps navigation sessions in a StackJournal file. Its own package so that
/// the library's build does not carry Hummingbird.
let package = Package(
  name: "NavigationService",
  platforms: [.macOS(.v15)],  // Synchronization.Mutex
  products: [
    .executable(name: "navigation-service", targets: ["navigation-service"])
  ],
  // `--traits PostgreSQL` lets `--db` take a postgres:// URL (the library's PostgresJournal);
  // without it nothing of postgres-nio is built.
  traits: [
    .trait(name: "PostgreSQL", description: "`--db postgres://…`: sessions in PostgreSQL.")
  ],
  dependencies: [
    // The identity of a path dependency is its folder name, which differs between checkouts.
    .package(
      name: "StackJournal", path: "../..",
      traits: [.defaults, .trait(name: "PostgreSQL", condition: .when(traits: ["PostgreSQL"]))]),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // Hummingbird's own dependencies, named for `ParseErrorResponder` (HTTP parse errors).
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.27.0"),
    // The server generated from the OpenAPI document (Sources/NavigationService/Generated) and
    // its transport.
    .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
  ],
  targets: [
    .target(
      name: "NavigationService",
      dependencies: [
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
        .product(name: "StackNavigation", package: "StackJournal"),
        .product(name: "StackStorage", package: "StackJournal"),
        .product(name: "StackRestoration", package: "StackJournal"),
        .product(
          name: "StackStoragePostgres", package: "StackJournal",
          condition: .when(traits: ["PostgreSQL"])),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      ],
      // swift-openapi-generator's output for the document, committed as the tool wrote it (its
      // types, `APIProtocol` and `registerHandlers`): `scripts/check-openapi.sh --regenerate`
      // rewrites it after the document changes, and `scripts/check-openapi.sh` (CI) fails when
      // it is not what the tool makes of the document.
      exclude: ["Generated/openapi-generator-config.yaml"],
      // The API's OpenAPI document, served at GET /openapi.yaml.
      resources: [.embedInCode("Resources/openapi.yaml")]
    ),
    .executableTarget(
      name: "navigation-service",
      dependencies: [
        "NavigationService",
        .product(name: "Hummingbird", package: "hummingbird"),
      ]
    ),
    // The load benchmark (scripts/bench.sh): HTTP clients on loopback, then RecordingStore
    // in-process, on one journal.
    .executableTarget(
      name: "navigation-bench",
      dependencies: [
        "NavigationService",
        .product(name: "StackRestoration", package: "StackJournal"),
        .product(name: "StackStorage", package: "StackJournal"),
      ]
    ),
    .testTarget(
      name: "NavigationServiceTests",
      dependencies: [
        "navigation-service",
        // To leave in a journal file what a process killed mid-request leaves (IdempotencyTests).
        .product(name: "StackStorage", package: "StackJournal"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
