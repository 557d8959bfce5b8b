import Foundation
import Logging

/// The records a ``logger`` received, for tests that check what a journal logs.
///
/// ```swift
/// let logs = CapturedLogs()
/// let journal = try SQLiteJournal(path: path, options: .init(logger: logs.logger))
/// XCTAssertEqual(logs.records.map(\.message), ["opened the journal"])
/// ```
public final class CapturedLogs: @unchecked Sendable {
  /// One record: its level, message and metadata (the logger's and the call's).
  public struct Record: Equatable, Sendable, CustomStringConvertible {
    public var level: Logger.Level
    public var message: String
    public var metadata: [String: String]

    public var description: String {
      "[\(level)] \(message) \(metadata.sorted { $0.key < $1.key })"
    }
  }

  private let lock = NSLock()
  private var captured: [Record] = []

  public init() {}

  /// A logger at `level` that records here.
  public func logger(level: Logger.Level = .trace) -> Logger {
    var logger = Logger(label: "captured") { _ in CapturingLogHandler(logs: self) }
    logger.logLevel = level
    return logger
  }

  /// A logger at `trace` that records here.
  public var logger: Logger { logger() }

  /// Every record so far, oldest first.
  public var records: [Record] { lock.withLock { captured } }

  /// The records whose message is `message`.
  public func records(_ message: String) -> [Record] { records.filter { $0.message == message } }

  /// Forgets the records so far.
  public func removeAll() { lock.withLock { captured.removeAll() } }

  fileprivate func append(_ record: Record) { lock.withLock { captured.append(record) } }
}

/// A log handler that hands each record to a ``CapturedLogs``.
struct CapturingLogHandler: LogHandler {
  let logs: CapturedLogs
  var logLevel: Logger.Level = .trace
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    var fields = metadata
    if let extra = event.metadata { fields.merge(extra) { _, new in new } }
    logs.append(
      CapturedLogs.Record(
        level: event.level, message: event.message.description,
        metadata: fields.mapValues { "\($0)" }))
  }
}
