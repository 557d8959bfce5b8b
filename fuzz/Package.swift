// swift-tools-version: 6.1
// Fuzz targets for StackJournal's parsers of untrusted bytes, built with libFuzzer's coverage
// instrumentation by `scripts/fuzz.sh`. Not part of the main package or of `swift test`.
import PackageDescription

let targets = [
  "FuzzExportReader", "FuzzJSONScanner", "FuzzJSONValue", "FuzzStackCoding", "FuzzTimeExpression",
  "FuzzStackPath", "FuzzImport", "FuzzStoredJSON",
]

let package = Package(
  name: "StackJournalFuzz",
  platforms: [.macOS(.v14)],
  // `scripts/fuzz.sh` links .root/StackJournal to the repository, so the package has that name
  // wherever the checkout lives.
  dependencies: [.package(path: ".root/StackJournal")],
  targets: [.target(name: "FuzzDriver", path: "Sources/FuzzDriver")]
    + targets.map { name in
      .executableTarget(
        name: name,
        dependencies: [
          "FuzzDriver",
          .product(name: "StackNavigation", package: "StackJournal"),
          .product(name: "StackJournalCore", package: "StackJournal"),
          .product(name: "StackStorage", package: "StackJournal"),
          .product(name: "StackRestoration", package: "StackJournal"),
          .product(name: "StackJournalCLI", package: "StackJournal"),
        ],
        path: "Sources/\(name)"
      )
    },
  swiftLanguageModes: [.v6]
)
