import Foundation

/// What each target of the package depends on: other targets by name, and other packages by the
/// name `Package.swift` gives them in `.product(name:package:)`.
struct ModuleArrows: Equatable {
  var dependencies: [String: Set<String>]

  /// The arrows of every target that is not a test target, read from the JSON that
  /// `swift package dump-package` prints.
  static func fromDumpedPackage(_ json: Data) throws -> ModuleArrows {
    let package = try JSONDecoder().decode(DumpedPackage.self, from: json)
    var dependencies: [String: Set<String>] = [:]
    for target in package.targets where target.type != "test" {
      dependencies[target.name] = Set(target.dependencies.map(\.name))
    }
    return ModuleArrows(dependencies: dependencies)
  }

  /// The arrows the README's table of targets states: the table whose header is
  /// `| target | what it holds | may depend on |`, one row a target named in backticks in its
  /// first column, its dependencies the names in backticks in its last column. A row whose name
  /// holds `*` speaks of several targets (the test targets) and is not read.
  static func fromREADME(_ markdown: String) throws -> ModuleArrows {
    let lines = markdown.components(separatedBy: "\n")
    guard let header = lines.firstIndex(where: { cells(of: $0) == tableHeader }) else {
      throw ReadingError(message: "The README has no table headed \(tableHeader).")
    }
    var dependencies: [String: Set<String>] = [:]
    for line in lines[(header + 2)...] {
      let row = cells(of: line)
      guard row.count == tableHeader.count else { break }
      let names = backticked(row[0])
      guard names.count == 1, let target = names.first else {
        throw ReadingError(message: "A row of the README's table names no one target: \(line)")
      }
      if target.contains("*") { continue }
      guard dependencies[target] == nil else {
        throw ReadingError(message: "The README's table has two rows for `\(target)`.")
      }
      dependencies[target] = Set(backticked(row[row.count - 1]))
    }
    return ModuleArrows(dependencies: dependencies)
  }

  /// Every difference between what the README states and what the package declares, one line
  /// each; empty when they match.
  static func mismatches(readme: ModuleArrows, package: ModuleArrows) -> [String] {
    var lines: [String] = []
    for target in Set(readme.dependencies.keys).union(package.dependencies.keys).sorted() {
      switch (readme.dependencies[target], package.dependencies[target]) {
      case (nil, _):
        lines.append("`\(target)` is a target of Package.swift without a row in the README.")
      case (_, nil):
        lines.append("`\(target)` has a row in the README but is no target of Package.swift.")
      case (let stated?, let declared?):
        for name in declared.subtracting(stated).sorted() {
          lines.append("`\(target)` depends on `\(name)`, which the README does not say.")
        }
        for name in stated.subtracting(declared).sorted() {
          lines.append("The README says `\(target)` depends on `\(name)`; Package.swift does not.")
        }
      }
    }
    return lines
  }

  struct ReadingError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  private static let tableHeader = ["target", "what it holds", "may depend on"]

  private static func cells(of line: String) -> [String] {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("|"), trimmed.hasSuffix("|"), trimmed.count > 1 else { return [] }
    return trimmed.dropFirst().dropLast().components(separatedBy: "|")
      .map { $0.trimmingCharacters(in: .whitespaces) }
  }

  private static func backticked(_ cell: String) -> [String] {
    let parts = cell.components(separatedBy: "`")
    return stride(from: 1, to: parts.count, by: 2).map { parts[$0] }
  }
}

/// The part of `swift package dump-package`'s JSON that holds the targets' dependencies.
private struct DumpedPackage: Decodable {
  struct Target: Decodable {
    var name: String
    var type: String
    var dependencies: [Dependency]
  }

  /// `{"byName": [name, condition]}`, `{"target": [name, condition]}` or
  /// `{"product": [name, package, moduleAliases, condition]}`: a target's name, or the package
  /// a product comes from.
  struct Dependency: Decodable {
    var name: String

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Kind.self)
      if container.contains(.product) {
        var fields = try container.nestedUnkeyedContainer(forKey: .product)
        let product = try fields.decode(String.self)
        // `.product(name:)` without a package names a product of the package of that name.
        name = try fields.decodeNil() ? product : try fields.decode(String.self)
      } else {
        let kind: Kind = container.contains(.byName) ? .byName : .target
        var fields = try container.nestedUnkeyedContainer(forKey: kind)
        name = try fields.decode(String.self)
      }
    }

    enum Kind: String, CodingKey {
      case byName, target, product
    }
  }

  var targets: [Target]
}
