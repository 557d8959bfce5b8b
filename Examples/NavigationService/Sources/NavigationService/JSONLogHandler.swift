import Foundation
import Logging
import Synchronization

/// Writes each log line as one JSON object on standard error: `time`, `level`, `message`, then
/// the metadata's keys. Whatever a value holds, JSON escaping keeps control codes and markup out
/// of the terminal and of a log collector's parser; a value is cut at 1,000 characters.
public struct JSONLogHandler: LogHandler {
  public var logLevel: Logger.Level = .info
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?
  private let label: String
  private static let output = Mutex(FileHandle.standardError)

  /// A handler for a logger's label (written as `logger`).
  public init(label: String) {
    self.label = label
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    var fields = metadata
    if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
    if let extra = event.metadata { fields.merge(extra) { _, new in new } }
    if let error = event.error { fields["error"] = "\(String(reflecting: error))" }
    var object: [String: Any] = [:]
    for (key, value) in fields { object[String(key.prefix(100))] = Self.json(value) }
    object["time"] = Self.timestamp()
    object["level"] = event.level.rawValue
    object["message"] = Self.bounded(event.message.description)
    object["logger"] = label
    guard
      var line = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return }
    line.append(UInt8(ascii: "\n"))
    Self.output.withLock { $0.write(line) }
  }

  private static func json(_ value: Logger.Metadata.Value) -> Any {
    switch value {
    case .string(let text): return bounded(text)
    case .stringConvertible(let value): return bounded(value.description)
    case .array(let values): return values.prefix(100).map(json)
    case .dictionary(let values):
      return Dictionary(
        values.prefix(100).map { (String($0.key.prefix(100)), json($0.value)) },
        uniquingKeysWith: { first, _ in first })
    }
  }

  private static func bounded(_ text: String) -> String {
    text.count <= 1000 ? text : String(text.prefix(1000)) + "…"
  }

  private static func timestamp() -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: Date())
  }
}
