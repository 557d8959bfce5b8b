import Foundation

/// One line of a session export after the header: a snapshot or a journal entry, with its JSON
/// members as text. The exporter writes lines as ``text``; the reader yields them checked.
package enum SessionExportLine: Sendable {
  case snapshot(sequence: Int64, version: Int, recordedAt: String, state: String, stacks: String)
  case entry(
    sequence: Int64, recordedAt: String, type: String, version: Int, payload: String,
    delta: String)

  /// The payload version of the line.
  package var version: Int {
    switch self {
    case .snapshot(_, let version, _, _, _), .entry(_, _, _, let version, _, _): version
    }
  }

  /// The line as written in an export, ending with a newline. State, stacks, payload and delta
  /// are spliced in as they are: they were checked to be JSON when they were stored.
  package var text: String {
    switch self {
    case .snapshot(let sequence, let version, let recordedAt, let state, let stacks):
      "{\"kind\":\"snapshot\",\"sequence\":\(sequence),\"version\":\(version),"
        + "\"recordedAt\":\(JSONText.literal(recordedAt)),\"state\":\(state),"
        + "\"stacks\":\(stacks)}\n"
    case .entry(let sequence, let recordedAt, let type, let version, let payload, let delta):
      "{\"kind\":\"entry\",\"sequence\":\(sequence),"
        + "\"recordedAt\":\(JSONText.literal(recordedAt)),\"type\":\(JSONText.literal(type)),"
        + "\"version\":\(version),\"payload\":\(payload),\"delta\":\(delta)}\n"
    }
  }
}
