import Foundation
import Testing

/// The example's folder, from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// Every route the service registers, as `METHOD PATH`: the generated server's (`method: .post,
/// path: server.apiPathComponentsWithServerPrefix("/sessions")` in Generated/Server.swift), and
/// any `router.METHOD("PATH")` Router.swift adds by hand, with Hummingbird's `:name` written as
/// OpenAPI's `{name}`.
private func registeredRoutes() throws -> Set<String> {
  var routes: Set<String> = []
  for (file, pattern) in [
    (
      "Sources/NavigationService/Generated/Server.swift",
      #"method: \.(get|post),\s*path: server\.apiPathComponentsWithServerPrefix\("([^"]+)"\)"#
    ),
    ("Sources/NavigationService/Router.swift", #"router\.(get|post)\("([^"]+)"\)"#),
  ] {
    let source = try String(
      contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
    let regex = try NSRegularExpression(pattern: pattern)
    for match in regex.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
      let method = (source as NSString).substring(with: match.range(at: 1))
      let path = (source as NSString).substring(with: match.range(at: 2))
        .replacingOccurrences(of: #":(\w+)"#, with: "{$1}", options: .regularExpression)
      routes.insert("\(method) \(path)")
    }
  }
  return routes
}

/// Every `PATH:` then `METHOD:` of the document's `paths`, as `METHOD PATH`.
private func documentedRoutes(_ yaml: String) -> Set<String> {
  var routes: Set<String> = []
  var path: String?
  var inPaths = false
  for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
    if line == "paths:" { inPaths = true; continue }
    if inPaths, !line.hasPrefix(" "), !line.isEmpty { break }
    if line.hasPrefix("  /"), line.hasSuffix(":") { path = String(line.dropFirst(2).dropLast()) }
    for method in ["get", "post"] where line == "    \(method):" {
      if let path { routes.insert("\(method) \(path)") }
    }
  }
  return routes
}

@Suite("the OpenAPI document")
struct OpenAPITests {
  @Test("GET /openapi.yaml serves the document of the source tree, naming every route and code")
  func served() async throws {
    let file = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "Sources/NavigationService/Resources/openapi.yaml"), encoding: .utf8)
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    let reply = try await service.request("GET", "/openapi.yaml")
    #expect(reply.status == 200)
    #expect(reply.contentType == "application/yaml; charset=utf-8")
    #expect(reply.text == file)

    #expect(file.hasPrefix("openapi: 3.1.0\n"))
    let routes = try registeredRoutes()
    #expect(routes.count >= 8, "\(routes)")
    #expect(documentedRoutes(file) == routes)
    // The running service answers each documented route (an unknown session is a 404
    // `unknownSession`, an unknown route a 404 `notFound`).
    for route in documentedRoutes(file).sorted() {
      let parts = route.split(separator: " ")
      let path = parts[1].replacingOccurrences(of: "{id}", with: "nobody")
      let answer = try await service.request(
        parts[0].uppercased(), path, body: parts[0] == "post" ? "{}" : nil)
      #expect(answer.status != 404 || answer.errorCode != "notFound", "\(route): \(answer.text)")
    }
    #expect(service.terminate() == 0)
  }

  @Test(
    "the document is valid OpenAPI 3.1 (openapi-spec-validator)",
    .enabled(if: validatorAvailable, "python3 with openapi-spec-validator is not installed"))
  func valid() throws {
    let path = packageRoot.appendingPathComponent(
      "Sources/NavigationService/Resources/openapi.yaml"
    ).path
    let result = try runChild(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-c", validatorScript, path], timeout: .seconds(60))
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput == "valid\n")
  }
}

private let validatorScript = """
  import sys
  from openapi_spec_validator import validate
  from openapi_spec_validator.readers import read_from_filename
  document, _ = read_from_filename(sys.argv[1])
  validate(document)
  print("valid")
  """

private let validatorAvailable: Bool = {
  guard
    let result = try? runChild(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-c", "import openapi_spec_validator"], timeout: .seconds(30))
  else { return false }
  return result.status == 0
}()
