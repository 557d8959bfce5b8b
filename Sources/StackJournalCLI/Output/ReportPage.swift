import Foundation
import StackJournalCore

/// The self-contained HTML page of `stackjournal report`: its style and script inline, the
/// session's data embedded as JSON, a Content-Security-Policy that lets only that script run.
///
/// The page holds the stacks at the first sequence of its range, rebuilt as `show --at` rebuilds
/// them (``SQLiteJournal/stacks(session:at:)``), and every entry's stack delta; the page applies
/// the deltas in order. While writing, the rebuild goes on here too (``StackRebuild``), so a
/// delta that does not fit, or a hole in the journal, stops the command instead of reaching the
/// page, and the fields of a changed element are found here, once.
struct ReportPage {
  /// The version of the embedded data's shape, which the page's script checks.
  static let format = 1
  /// The most fields listed for one changed element; the page says how many more there are.
  static let fieldsPerElement = 8
  /// The longest text of a changed field's value; longer ones are cut with `…`.
  static let fieldValueLength = 160

  var journal: any InspectableJournal
  var session: SessionInfo
  var forks: [SessionInfo]
  var base: Int64
  var from: Int64
  var to: Int64
  /// Above this many bytes of embedded data the page is not written.
  var maxDataBytes: Int
  var generator: String
  var generatedAt = Date()

  /// What was written.
  struct Written {
    var html: Data
    var entries: Int
  }

  /// The page, or a failure naming the sequence where the data outgrew ``maxDataBytes``.
  func build() async throws -> Written {
    let (data, entries) = try await embeddedData()
    let script = ReportAssets.script
    let style = ReportAssets.style
    let policy =
      "default-src 'none'; script-src '\(ReportAssets.hash(script))'; "
      + "style-src '\(ReportAssets.hash(style))'; img-src 'none'; base-uri 'none'; "
      + "form-action 'none'"
    var html = Data()
    html.reserveCapacity(data.count + script.utf8.count + style.utf8.count + 8192)
    let template = ReportAssets.template
    var rest = template[...]
    while let open = rest.range(of: "{{") {
      html.append(contentsOf: rest[..<open.lowerBound].utf8)
      guard let close = rest[open.upperBound...].range(of: "}}") else {
        preconditionFailure("report.html has an unclosed placeholder")
      }
      switch rest[open.upperBound..<close.lowerBound] {
      case "CSP": html.append(contentsOf: policy.utf8)
      case "GENERATOR": html.append(contentsOf: Self.htmlEscaped(generator).utf8)
      case "TITLE": html.append(contentsOf: Self.htmlEscaped("StackJournal · \(session.id)").utf8)
      case "STYLE": html.append(contentsOf: style.utf8)
      case "SCRIPT": html.append(contentsOf: script.utf8)
      case "DATA": html.append(data)
      case let name: preconditionFailure("report.html has an unknown placeholder \(name)")
      }
      rest = rest[close.upperBound...]
    }
    html.append(contentsOf: rest.utf8)
    return Written(html: html, entries: entries)
  }

  /// The JSON the page reads, made safe to sit inside a `<script>` element.
  func embeddedData() async throws -> (Data, Int) {
    let id = session.id
    var rebuild = StackRebuild(
      session: id, from: from, stacks: try await journal.stacks(session: id, at: from))
    let startTime = try await journal.recordedAt(session: id, sequence: from)
    var text = "{\"format\":\(Self.format),\"generator\":\(JSONValue.quoted(generator))"
    text += ",\"generatedAt\":\(JSONValue.quoted(TimeFormat.iso(generatedAt)))"
    text += ",\"session\":" + sessionJSON.compact
    text += ",\"base\":\(base),\"from\":\(from),\"to\":\(to)"
    text += ",\"startTime\":\(Self.milliseconds(startTime))"
    text += ",\"start\":" + JSONValue.array(rebuild.stacks.map(StackRendering.stackJSON)).compact
    text += ",\"entries\":["
    var types: [String: Int] = [:]
    var typeList: [String] = []
    var count = 0
    var failure: (any Error)?
    try await journal.journalRows(
      session: id, matching: JournalQuery(fromSequence: from + 1, toSequence: to)
    ) { row in
      let delta = try row.decodedDelta()
      let fields = Self.changedFields(delta, before: rebuild.stacks)
      try rebuild.apply(entry: row.sequence, delta)
      let typeIndex: Int
      if let known = types[row.type] {
        typeIndex = known
      } else {
        typeIndex = typeList.count
        types[row.type] = typeIndex
        typeList.append(row.type)
      }
      let entry = JSONValue.array([
        .int(row.sequence),
        .int(Self.milliseconds(try row.recordedDate()) - Self.milliseconds(startTime)),
        .int(typeIndex),
        JSONValue(lenient: row.payload),
        Self.changesJSON(delta),
        .array(fields),
        .string(ActionDump.text(ofPayload: row.payload)),
      ])
      if count > 0 { text += "," }
      text += entry.compact
      count += 1
      if text.utf8.count > maxDataBytes {
        failure = CLIFailure(
          message: "The page for session \(id) passed \(TimeFormat.bytes(Int64(maxDataBytes))) "
            + "of data at sequence \(row.sequence) (--max-bytes); ask for a range with "
            + "--from/--to, such as --from \(from) --to \(max(from + 1, row.sequence - 1)).")
        return false
      }
      return true
    }
    if let failure { throw failure }
    _ = try rebuild.stacks(at: to)
    text += "],\"types\":" + JSONValue.array(typeList.map(JSONValue.string)).compact + "}"
    return (Self.scriptSafe(text), count)
  }

  private var sessionJSON: JSONValue {
    .object([
      ("id", .string(session.id.rawValue)),
      ("createdAt", .string(TimeFormat.iso(session.createdAt))),
      (
        "metadata",
        session.metadata.map { JSONValue(lenient: String(decoding: $0, as: UTF8.self)) } ?? .null
      ),
      ("headSequence", .int(session.headSequence)),
      ("forkedFrom", .optional(session.forkedFrom?.rawValue)),
      ("forkedAt", session.forkedAt.map { .int($0) } ?? .null),
      (
        "forks",
        .array(
          forks.map { fork in
            .object([
              ("id", .string(fork.id.rawValue)), ("at", fork.forkedAt.map { .int($0) } ?? .null),
            ])
          })
      ),
    ])
  }

  /// `[path, nextID, ids, pushed, popped, changed, removed, kind, presented]` per change,
  /// elements as `show --json` prints them (`{"id", "case", "state"}`, and `"route"` for a
  /// coordinator's route), `kind` `stack`, `routes` or `presentation`, and `presented` what a
  /// presentation's change presents, as ``StackRendering/stackJSON(_:)`` gives it, or null.
  static func changesJSON(_ delta: StackDelta) -> JSONValue {
    .array(
      delta.changes.map { change in
        .array([
          .string(change.path),
          .int(change.nextID.generation),
          .array(change.ids.map { .int($0.generation) }),
          .array(change.pushed.map(StackRendering.elementJSON)),
          .array(change.popped.map { .int($0.generation) }),
          .array(change.changed.map(StackRendering.elementJSON)),
          .int(change.removed ? 1 : 0),
          .string(StackRendering.kind(of: change)),
          StackRendering.presentedJSON(of: change),
        ])
      })
  }

  /// `[path, id, [[field, before, after]], more]` per changed element: the fields that differ
  /// (``FieldDifference``), values as cut JSON text, `null` for a field added or removed.
  static func changedFields(_ delta: StackDelta, before stacks: [StackRecord]) -> [JSONValue] {
    var result: [JSONValue] = []
    for change in delta.changes where !change.removed && !change.changed.isEmpty {
      guard let stack = stacks.first(where: { $0.path == change.path }) else { continue }
      for element in change.changed {
        guard let old = stack.elements.first(where: { $0.id == element.id }) else { continue }
        let differences = FieldDifference.between(
          StackRendering.state(old), StackRendering.state(element))
        let shown = differences.prefix(fieldsPerElement).map { difference in
          JSONValue.array([
            .string(difference.path),
            difference.before.map { .string(cut($0.compact)) } ?? .null,
            difference.after.map { .string(cut($0.compact)) } ?? .null,
          ])
        }
        result.append(
          .array([
            .string(change.path), .int(element.id.generation), .array(Array(shown)),
            .int(max(0, differences.count - fieldsPerElement)),
          ]))
      }
    }
    return result
  }

  static func cut(_ text: String) -> String {
    text.count > fieldValueLength ? String(text.prefix(fieldValueLength - 1)) + "…" : text
  }

  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  /// JSON text that cannot end or confuse the `<script>` element holding it: `<`, `>`, `&`,
  /// U+2028 and U+2029 written as `\u` escapes. These characters occur only inside strings of
  /// JSON, where the escapes mean the same.
  static func scriptSafe(_ json: String) -> Data {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(json.utf8.count + 64)
    var utf8 = json.utf8.makeIterator()
    func escape(_ code: String) {
      bytes.append(contentsOf: "\\u\(code)".utf8)
    }
    while let byte = utf8.next() {
      switch byte {
      case UInt8(ascii: "<"): escape("003c")
      case UInt8(ascii: ">"): escape("003e")
      case UInt8(ascii: "&"): escape("0026")
      case 0xE2:
        // A string's UTF-8 is valid: two continuation bytes follow. U+2028 is E2 80 A8 and
        // U+2029 is E2 80 A9.
        let second = utf8.next() ?? 0
        let third = utf8.next() ?? 0
        if second == 0x80 && third == 0xA8 {
          escape("2028")
        } else if second == 0x80 && third == 0xA9 {
          escape("2029")
        } else {
          bytes.append(contentsOf: [byte, second, third])
        }
      default:
        bytes.append(byte)
      }
    }
    return Data(bytes)
  }

  /// Text safe inside an HTML element or a quoted attribute.
  static func htmlEscaped(_ text: String) -> String {
    var result = ""
    for character in text.unicodeScalars {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      case let scalar where scalar.value < 0x20 || scalar.value == 0x7F: result += " "
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }
}
