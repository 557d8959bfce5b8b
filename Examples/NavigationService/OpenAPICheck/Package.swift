// swift-tools-version: 6.0
// Builds swift-openapi-generator's command-line tool for `scripts/check-openapi.sh`, which
// generates the service's types and server (Sources/NavigationService/Generated) from
// `Sources/NavigationService/Resources/openapi.yaml` and compares them with the committed ones.
// The service's own package depends on the runtime only, never on the generator or its plugin.
import PackageDescription

let package = Package(
  name: "OpenAPICheck",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
  ],
  targets: []
)
