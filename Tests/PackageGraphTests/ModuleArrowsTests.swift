import Foundation
import Testing

/// The README's table of targets states what each target may depend on; these tests hold it to
/// what Package.swift declares, so the two cannot drift apart.
@Suite struct ModuleArrowsTests {
  @Test func theREADMEsTableStatesTheArrowsOfPackageSwift() throws {
    let package = try ModuleArrows.fromDumpedPackage(try dumpPackage())
    let readme = try ModuleArrows.fromREADME(
      String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8))
    #expect(ModuleArrows.mismatches(readme: readme, package: package) == [])
    #expect(package.dependencies["StackRestoration"] == ["StackJournalCore", "StackNavigation"])
  }

  @Test func anArrowTheREADMELacksOrAddsIsAMismatch() throws {
    let package = ModuleArrows(dependencies: [
      "Core": ["Model"], "Engine": ["Core", "GRDB.swift"], "Model": [],
    ])
    let readme = try ModuleArrows.fromREADME(
      """
      | target | what it holds | may depend on |
      |---|---|---|
      | `Model` | the model | nothing |
      | `Core` | the journal | `Model`, `Engine` |
      | `Engine` | SQLite | `Core` |
      """)
    #expect(
      ModuleArrows.mismatches(readme: readme, package: package) == [
        "The README says `Core` depends on `Engine`; Package.swift does not.",
        "`Engine` depends on `GRDB.swift`, which the README does not say.",
      ])
  }

  @Test func aTargetWithoutARowOrARowWithoutATargetIsAMismatch() throws {
    let package = ModuleArrows(dependencies: ["Model": [], "Tool": ["Model"]])
    let readme = try ModuleArrows.fromREADME(
      """
      Some text before.

      | target | what it holds | may depend on |
      |---|---|---|
      | `Model` | the model | nothing |
      | `Gone` | a target that was removed | `Model` |
      | `*Tests` | the tests | `Model` |

      Text after the table, with a `backtick` of its own.
      """)
    #expect(readme.dependencies == ["Model": [], "Gone": ["Model"]])
    #expect(
      ModuleArrows.mismatches(readme: readme, package: package) == [
        "`Gone` has a row in the README but is no target of Package.swift.",
        "`Tool` is a target of Package.swift without a row in the README.",
      ])
  }

  @Test func aREADMEWithoutTheTableOrWithTwoRowsForATargetIsRefused() {
    #expect(throws: ModuleArrows.ReadingError.self) {
      try ModuleArrows.fromREADME("| target | what it does |\n|---|---|\n| `Model` | the model |")
    }
    #expect(throws: ModuleArrows.ReadingError.self) {
      try ModuleArrows.fromREADME(
        """
        | target | what it holds | may depend on |
        |---|---|---|
        | `Model` | the model | nothing |
        | `Model` | the model again | `Core` |
        """)
    }
  }

  @Test func theDumpedPackageNamesTargetsAndThePackagesOfProducts() throws {
    let json = """
      {"targets": [
        {"name": "Engine", "type": "regular", "dependencies": [
          {"byName": ["Core", null]},
          {"target": ["Migrations", null]},
          {"product": ["GRDB", "GRDB.swift", null, null]},
          {"product": ["PostgresNIO", "postgres-nio", null,
            {"platformNames": [], "traits": ["PostgreSQL"]}]}
        ]},
        {"name": "EngineTests", "type": "test", "dependencies": [{"byName": ["Engine", null]}]},
        {"name": "Tool", "type": "executable", "dependencies": [
          {"product": ["ArgumentParser", null, null, null]}
        ]}
      ]}
      """
    let arrows = try ModuleArrows.fromDumpedPackage(Data(json.utf8))
    #expect(
      arrows.dependencies == [
        "Engine": ["Core", "Migrations", "GRDB.swift", "postgres-nio"],
        "Tool": ["ArgumentParser"],
      ])
  }

  /// The package's root: this file is `Tests/PackageGraphTests/ModuleArrowsTests.swift`.
  private var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// Package.swift as `swift package dump-package` reads it. Its scratch folder is a temporary
  /// one: the package's own `.build` is locked by the `swift test` that runs this test.
  private func dumpPackage() throws -> Data {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("ModuleArrowsTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swift", "package", "--package-path", packageRoot.path, "--scratch-path", scratch.path,
      "dump-package",
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let json = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ModuleArrows.ReadingError(
        message: "swift package dump-package failed: \(String(decoding: message, as: UTF8.self))")
    }
    return json
  }
}
