import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Builds the router of the service over a registry: the routes are the server generated from
/// the OpenAPI document (in Generated/, registered by `registerHandlers`), serving
/// ``NavigationAPIHandler``; the middleware around them is the service's own.
///
/// - Parameter readiness: Off once the service is shutting down: `GET /health/ready` then
///   answers 503 `draining`.
/// - Parameter bodyLimit: The largest request body read; a larger one gets 413 `bodyTooLarge`.
public func buildRouter(
  registry: SessionRegistry, readiness: Readiness = Readiness(),
  bodyLimit: Int = ServiceConfiguration.defaultBodyLimit, tokens: BearerTokens? = nil
) throws -> Router<BasicRequestContext> {
  let router = Router()
  router.add(middleware: RequestIDMiddleware(metrics: registry.metrics))
  router.add(middleware: JSONErrorMiddleware(bodyLimit: bodyLimit))
  if let tokens { router.add(middleware: BearerAuthMiddleware(tokens: tokens)) }
  router.add(
    middleware: GeneratedServerMiddleware(bodyLimit: bodyLimit, journal: registry.journal))
  // Compact JSON with sorted keys, as the service has always answered (the runtime's default
  // pretty-prints).
  try NavigationAPIHandler(registry: registry, readiness: readiness).registerHandlers(
    on: router, configuration: Configuration(jsonEncodingOptions: [.sortedKeys]))
  return router
}
