import Foundation

/// One line of a session export after the header: a snapshot or a journal entry, the rows a
/// journal stores, with their JSON members as text. The exporter writes lines as ``text``; the
/// reader yields them checked.
package enum SessionExportLine: Sendable {
  case snapshot(StoredSnapshotRow)
  case entry(JournalRow)

  /// The sequence of the line's snapshot or entry.
  package var sequence: Int64 {
    switch self {
    case .snapshot(let snapshot): snapshot.sequence
    case .entry(let entry): entry.sequence
    }
  }

  /// The payload version of the line.
  package var version: Int {
    switch self {
    case .snapshot(let snapshot): snapshot.version
    case .entry(let entry): entry.version
    }
  }

  /// The line as written in an export, ending with a newline. State, stacks, payload, delta and
  /// draws are spliced in as they are: they were checked to be JSON when they were stored (an
  /// export checks the draws first, see ``SessionExporter``). An entry without draws has no
  /// `draws` member.
  package var text: String {
    switch self {
    case .snapshot(let row):
      "{\"kind\":\"snapshot\",\"sequence\":\(row.sequence),\"version\":\(row.version),"
        + "\"recordedAt\":\(JSONText.literal(row.recordedAt)),\"state\":\(row.state),"
        + "\"stacks\":\(row.stacks)}\n"
    case .entry(let row):
      "{\"kind\":\"entry\",\"sequence\":\(row.sequence),"
        + "\"recordedAt\":\(JSONText.literal(row.recordedAt)),"
        + "\"type\":\(JSONText.literal(row.type)),"
        + "\"version\":\(row.version),\"payload\":\(row.payload),\"delta\":\(row.delta)"
        + (row.draws.map { ",\"draws\":\($0)" } ?? "") + "}\n"
    }
  }
}
