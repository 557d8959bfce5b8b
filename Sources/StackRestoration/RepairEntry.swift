import Foundation
import StackJournalCore

/// The journal entry a recording store writes when it continues a session whose history no
/// longer fully decodes: it records what was left out and the state recording continues from.
///
/// Its payload is `{"repair": {"skipped": ["…"], "state": <the state>}}`. Replay does not run a
/// reducer for it: the state after it is the state it holds.
enum RepairEntry {
  /// The entry's type in the journal.
  static let type = "stackjournal.repair"

  static func payload(skipped: [SkippedItem], state: EncodedState) throws -> Data {
    let stateObject = try JSONSerialization.jsonObject(with: state.json, options: [.fragmentsAllowed])
    let repair: [String: Any] = ["skipped": skipped.map(\.description), "state": stateObject]
    return try JSONSerialization.data(
      withJSONObject: ["repair": repair], options: [.sortedKeys, .fragmentsAllowed])
  }

  /// The state a repair entry holds, as JSON.
  static func state(of entry: JournalEntry) throws -> Data {
    guard
      let object = try JSONSerialization.jsonObject(with: entry.payload, options: [.fragmentsAllowed])
        as? [String: Any],
      let repair = object["repair"] as? [String: Any], let state = repair["state"]
    else {
      throw RestorationError(
        code: .undecodableState,
        message: "The repair entry \(entry.sequence) holds no state; the journal is damaged.")
    }
    return try JSONSerialization.data(withJSONObject: state, options: [.fragmentsAllowed])
  }
}
