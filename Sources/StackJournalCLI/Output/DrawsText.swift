import Foundation
import StackJournalCore
import StackNavigation

/// How the commands show what an entry's reducer drew (`log`), and which entries of a session
/// were written before draws were journaled (`show`, `verify`).
///
/// A draw's kind is an app's own name for a `journaledDraw` value, read from the journal: it is
/// shown with every character that is not printable escaped, newlines included, so it stays on
/// its line and can send no sequence to the terminal.
enum DrawsText {
  /// What `log` says of an entry's draws: `drew 2 uuid, 1 date`, `recorded the environment`,
  /// both, or nothing for an entry without draws.
  static func note(_ draws: EntryDraws?) -> String {
    guard let draws else { return "" }
    var parts: [String] = []
    if !draws.values.isEmpty { parts.append("drew " + Terminal.escaped(draws.summary, keepingNewlines: false)) }
    if draws.environment != nil { parts.append("recorded the environment") }
    return parts.joined(separator: ", ")
  }

  /// `log --json`'s `draws` (the values, as the journal keeps them) and `environment` (or
  /// `null`) of an entry.
  static func json(_ draws: EntryDraws?) -> (values: JSONValue, environment: JSONValue) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    func value(_ encodable: some Encodable) -> JSONValue {
      // Strings and finite numbers: encoding cannot fail.
      (try? encoder.encode(encodable)).map { JSONValue(lenient: String(decoding: $0, as: UTF8.self)) }
        ?? .null
    }
    return (
      draws.map { value($0.values) } ?? .array([]),
      draws?.environment.map { value($0) } ?? .null
    )
  }

  /// The sentence that says which entries of a session were written before draws were
  /// journaled, or `nil` when it holds none: those after `base` (its oldest snapshot) below
  /// `drawsFrom`, up to its head.
  static func unjournaled(base: Int64, drawsFrom: Int64, head: Int64) -> String? {
    let first = max(base, 0) + 1
    let last = min(drawsFrom - 1, head)
    guard last >= first else { return nil }
    let entries = first == last ? "entry \(first) was" : "entries \(first)–\(last) were"
    let replay = first == last ? "it replays" : "they replay"
    return "\(entries) written before draws were journaled: \(replay) with this process's "
      + "dependencies"
  }
}
