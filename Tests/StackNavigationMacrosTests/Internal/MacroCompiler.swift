import Foundation
import Testing

/// Compiles Swift source against the `StackNavigation` module that `swift test` built, with this
/// package's macro plugin loaded as a user's build loads it, and returns what the compiler printed:
/// each macro expansion (`-dump-macro-expansions`) and each diagnostic.
///
/// The tests drive the real compiler instead of linking swift-syntax's expansion test support: a
/// test target that depends on a macro target makes SwiftPM build the whole test product a second
/// time for the host, which added about 85 seconds (half again) to a cold `swift test` build.
enum MacroCompiler {
  /// What one compilation printed.
  struct Compilation {
    /// The compiler's exit status: 0 when the source type-checked.
    var status: Int32
    /// Each expansion: the name of the buffer the compiler gave it, and its text.
    var expansions: [(buffer: String, text: String)]
    /// Each error or warning, without the "(from macro …)" suffix.
    var diagnostics: [Diagnostic]
    /// Everything the compiler wrote, for failure messages.
    var output: String

    /// The one expansion of `macro` with `role` attached to `declaration` (a dotted path from
    /// the file's top level, such as `Feature.Path`; for a member attribute, the member's path
    /// such as `Feature.Path.State`), or `nil` with an issue recorded.
    func expansion(
      _ macro: String, _ role: Role, on declaration: String,
      sourceLocation: SourceLocation = #_sourceLocation
    ) -> String? {
      // The buffer's name is the mangled name of the declaration, the macro and the role:
      // `@__swiftmacro_4main7FeatureV4Path7ReducerfMm_.swift` (V: in a struct, O: in an enum).
      let path = declaration.split(separator: ".").map { "\($0.utf8.count)\($0)" }
      let prefix = "@__swiftmacro_4main"
      let found = expansions.filter { expansion in
        guard expansion.buffer.hasPrefix(prefix) else { return false }
        var rest = Substring(expansion.buffer.dropFirst(prefix.count))
        for (index, component) in path.enumerated() {
          if index > 0 {
            guard let kind = rest.first, "VOC".contains(kind) else { return false }
            rest = rest.dropFirst()
          }
          guard rest.hasPrefix(component) else { return false }
          rest = rest.dropFirst(component.count)
        }
        let role = "\(macro.utf8.count)\(macro)fM\(role.rawValue)"
        guard rest.hasPrefix(role) else { return false }
        rest = rest.dropFirst(role.count).drop(while: \.isNumber)
        return rest == "_.swift"
      }
      guard found.count == 1 else {
        let message =
          "expected one \(role) expansion of @\(macro) on \(declaration), found "
          + "\(found.count):\n\(output)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        return nil
      }
      return found[0].text
    }
  }

  /// A diagnostic: where and what.
  struct Diagnostic: Equatable, CustomStringConvertible {
    var line: Int
    var column: Int
    var severity: String
    var message: String

    var description: String { "\(line):\(column): \(severity): \(message)" }
  }

  /// The role of an attached macro, as the compiler's mangling spells it.
  enum Role: String, CustomStringConvertible {
    case member = "m"
    case memberAttribute = "r"
    case `extension` = "e"

    var description: String {
      switch self {
      case .member: "member"
      case .memberAttribute: "member-attribute"
      case .extension: "extension"
      }
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Type-checks `source` as the file `main.swift` of a module that imports `StackNavigation`.
  static func compile(_ source: String) throws -> Compilation {
    let products = try productsDirectory()
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("stacknavigation-macros-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let file = scratch.appendingPathComponent("main.swift")
    try Data(("import StackNavigation\n\n" + source).utf8).write(to: file)

    var arguments = [
      "swiftc", "-typecheck", "-module-name", "main", "-swift-version", "6",
      "-I", products.appendingPathComponent("Modules").path,
      "-Xfrontend", "-dump-macro-expansions",
    ]
    // The macro plugins the build made (ours and CasePaths'), loaded as SwiftPM loads them.
    for name in try FileManager.default.contentsOfDirectory(atPath: products.path).sorted()
    where name.hasSuffix("Macros-tool") {
      let module = String(name.dropLast("-tool".count))
      arguments += [
        "-load-plugin-executable", products.appendingPathComponent(name).path + "#" + module,
      ]
    }
    // The module maps of C targets that the imported modules depend on.
    for name in try FileManager.default.contentsOfDirectory(atPath: products.path).sorted()
    where name.hasSuffix(".build") && !name.hasSuffix("-tool.build") {
      let map = products.appendingPathComponent(name).appendingPathComponent("module.modulemap")
      if FileManager.default.fileExists(atPath: map.path) {
        arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
      }
    }
    arguments.append(file.path)

    let outputFile = scratch.appendingPathComponent("output")
    FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    let output = try FileHandle(forWritingTo: outputFile)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(300)
    while process.isRunning {
      if Date() > deadline {
        process.terminate()
        throw Failure(description: "swiftc ran past 300 s")
      }
      Thread.sleep(forTimeInterval: 0.01)
    }
    process.waitUntilExit()
    try output.close()
    let text = String(decoding: try Data(contentsOf: outputFile), as: UTF8.self)
    return Compilation(
      status: process.terminationStatus, expansions: parseExpansions(text),
      diagnostics: parseDiagnostics(text, file: file.path), output: text)
  }

  /// The directory that holds the test bundle, the macro plugins and `Modules`.
  static func productsDirectory() throws -> URL {
    var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    for bundle in [Bundle.main] + Bundle.allBundles {
      candidates.append(bundle.bundleURL.deletingLastPathComponent())
      candidates.append(bundle.bundleURL)
    }
    for directory in candidates {
      let plugin = directory.appendingPathComponent("StackNavigationMacros-tool")
      if FileManager.default.isExecutableFile(atPath: plugin.path) { return directory }
    }
    throw Failure(
      description: "StackNavigationMacros-tool was not found beside the test bundle in "
        + "\(candidates.map(\.path)); run the tests with `swift test`.")
  }

  /// `-dump-macro-expansions` prints each expansion as its buffer's name, a rule, the text and a
  /// rule.
  static func parseExpansions(_ text: String) -> [(buffer: String, text: String)] {
    let rule = "------------------------------"
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var result: [(buffer: String, text: String)] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      if line.hasPrefix("@__swiftmacro_"), index + 1 < lines.count, lines[index + 1] == rule,
        let end = lines[(index + 2)...].firstIndex(of: rule)
      {
        result.append((line, lines[(index + 2)..<end].joined(separator: "\n")))
        index = end + 1
      } else {
        index += 1
      }
    }
    return result
  }

  /// `main.swift:7:1: error: message (from macro 'Reducer')`, for the compiled file only.
  static func parseDiagnostics(_ text: String, file: String) -> [Diagnostic] {
    var result: [Diagnostic] = []
    for line in text.split(separator: "\n").map(String.init) where line.hasPrefix(file + ":") {
      let fields = line.dropFirst(file.count + 1).split(
        separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
      guard fields.count == 4, let row = Int(fields[0]), let column = Int(fields[1]) else {
        continue
      }
      var message = fields[3].trimmingCharacters(in: .whitespaces)
      if let suffix = message.range(of: " (from macro '", options: .backwards) {
        message = String(message[..<suffix.lowerBound])
      }
      result.append(
        Diagnostic(
          // The source starts after the two lines of the import.
          line: row - 2, column: column,
          severity: fields[2].trimmingCharacters(in: .whitespaces), message: message))
    }
    return result
  }
}
