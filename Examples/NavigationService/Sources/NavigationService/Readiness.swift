import Logging
import ServiceLifecycle
import Synchronization

/// Whether the service takes new work: `GET /health/ready` answers 503 `draining` once it is off.
public final class Readiness: Sendable {
  private let ready = Atomic<Bool>(true)

  public init() {}

  /// Whether `GET /health/ready` says ready.
  public var isReady: Bool { ready.load(ordering: .relaxed) }

  /// Turns readiness off, for good.
  func turnOff() { ready.store(false, ordering: .relaxed) }
}

/// The first service the `ServiceGroup` shuts down: on SIGTERM it turns readiness off and keeps
/// the server serving for `drainDelay`, so that a load balancer probing `/health/ready` stops
/// sending new requests before the server stops accepting them. It then returns, and the group
/// shuts the server down next (in-flight requests finish).
struct ReadinessGate: Service {
  let readiness: Readiness
  let drainDelay: Duration
  let logger: Logger

  func run() async throws {
    // Waits for SIGTERM or SIGINT (the group's graceful shutdown); throws when cancelled.
    try await gracefulShutdown()
    readiness.turnOff()
    logger.info(
      "shutting down: readiness off",
      metadata: ["drain_ms": "\(drainDelay.milliseconds)"])
    // The server still serves meanwhile; a second signal does not shorten the wait.
    try? await Task.sleep(for: drainDelay)
    logger.info("no new connections; in-flight requests finish")
  }
}
