import CoreMetrics
import Foundation
import Metrics
import Prometheus
import StackStorage

/// The service's metrics, recorded through swift-metrics into a Prometheus registry of the
/// service's own (not the process-wide `MetricsSystem`), and written out by `GET /metrics` in
/// Prometheus's text format.
public final class ServiceMetrics: Sendable {
  /// The registry `GET /metrics` writes out.
  public let registry: PrometheusCollectorRegistry
  private let factory: PrometheusMetricsFactory
  private let appendLatency: Metrics.Timer
  private let conflicts: CoreMetrics.Counter
  private let rehydrations: CoreMetrics.Counter
  private let liveSessions: CoreMetrics.Gauge

  /// Latency buckets, in seconds: from a quarter of a millisecond to ten seconds.
  static let latencyBuckets: [Duration] = [
    .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
    .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
    .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
    .seconds(10),
  ]

  public init() {
    registry = PrometheusCollectorRegistry()
    var factory = PrometheusMetricsFactory(registry: registry)
    factory.defaultDurationHistogramBuckets = Self.latencyBuckets
    self.factory = factory
    appendLatency = Metrics.Timer(label: "navigation_append_duration_seconds", factory: factory)
    conflicts = CoreMetrics.Counter(label: "navigation_sequence_conflicts_total", factory: factory)
    rehydrations = CoreMetrics.Counter(label: "navigation_rehydrations_total", factory: factory)
    liveSessions = CoreMetrics.Gauge(label: "navigation_live_sessions", factory: factory)
  }

  /// A request answered: its latency, by method, route pattern and status.
  func recordRequest(method: String, route: String, status: Int, duration: Duration) {
    Metrics.Timer(
      label: "navigation_request_duration_seconds",
      dimensions: [("method", method), ("route", route), ("status", String(status))],
      factory: factory
    ).record(duration: duration)
  }

  /// An action's append, from the call to the store until it was in the journal.
  func recordAppend(_ duration: Duration) { appendLatency.record(duration: duration) }

  /// A 409 `sequenceConflict`: another process appended to the session first.
  func recordConflict() { conflicts.increment() }

  /// A session's store opened from the journal.
  func recordRehydration() { rehydrations.increment() }

  /// The metrics in Prometheus's text format, with the gauges read now: the sessions in memory
  /// and, for an SQLite journal in group-commit mode, its batches so far.
  func exposition(liveSessions count: Int, journal: any JournalBackend) -> [UInt8] {
    liveSessions.record(count)
    if let statistics = (journal as? SQLiteJournal)?.groupCommitStatistics {
      // Made on the first scrape: a journal without group commit has none of them.
      for (label, value) in [
        ("navigation_group_commit_batches", statistics.batches),
        ("navigation_group_commit_appends", statistics.appends),
        ("navigation_group_commit_largest_batch", statistics.largestBatch),
      ] {
        CoreMetrics.Gauge(label: label, factory: factory).record(value)
      }
    }
    return registry.emitToBuffer()
  }
}
