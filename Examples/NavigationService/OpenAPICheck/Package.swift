// swift-tools-version: 6.0
// Checks `Sources/NavigationService/Resources/openapi.yaml` with swift-openapi-generator: the
// document must generate types and a server without a diagnostic, and the generated code must
// compile against swift-openapi-runtime. `scripts/check-openapi.sh` generates into
// `Sources/GeneratedAPI` (not committed) and builds it.
import PackageDescription

let package = Package(
  name: "OpenAPICheck",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
  ],
  targets: [
    .target(
      name: "GeneratedAPI",
      dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")]
    )
  ]
)
