import Foundation
import StackNavigation
import StackStorage

/// How stacks, elements and deltas print, for people and as JSON.
enum StackRendering {
  /// The element's own state: the stored JSON without the enum case wrapper
  /// (`{"counter":{"_0":{"count":1}}}` gives `{"count":1}`).
  static func state(_ element: StoredElement) -> JSONValue {
    let value = JSONValue(lenient: element.state)
    guard let caseName = element.caseName, case .object(let members) = value,
      members.count == 1, members[0].0 == caseName
    else { return value }
    let inner = members[0].1
    if case .object(let fields) = inner, fields.count == 1, fields[0].0 == "_0" {
      return fields[0].1
    }
    return inner
  }

  /// `{"id": 0, "case": "counter", "state": {…}}`.
  static func elementJSON(_ element: StoredElement) -> JSONValue {
    .object([
      ("id", .int(element.id.generation)),
      ("case", .optional(element.caseName)),
      ("state", state(element)),
    ])
  }

  /// `{"path": "path", "nextID": 3, "elements": […]}`.
  static func stackJSON(_ stack: StackRecord) -> JSONValue {
    .object([
      ("path", .string(stack.path)),
      ("nextID", .int(stack.nextID.generation)),
      ("elements", .array(stack.elements.map(elementJSON))),
    ])
  }

  /// A stack's path for people: `(root)` for a state that is itself a stack.
  static func name(_ path: String) -> String {
    path.isEmpty ? "(root)" : path
  }

  /// The lines of stacks for people.
  static func lines(_ stacks: [StackRecord], on terminal: Terminal) -> [String] {
    guard !stacks.isEmpty else { return ["(no stacks)"] }
    var lines: [String] = []
    for stack in stacks {
      lines.append(
        terminal.styled(name(stack.path), .bold)
          + terminal.styled(
            "  \(stack.elements.count) element\(stack.elements.count == 1 ? "" : "s"), next ID "
              + "\(stack.nextID)", .dim))
      let idWidth = stack.elements.map { $0.id.description.count }.max() ?? 2
      let caseWidth = stack.elements.map { ($0.caseName ?? "-").count }.max() ?? 1
      for element in stack.elements {
        lines.append(
          "  " + terminal.styled(pad(element.id.description, idWidth), .cyan) + "  "
            + pad(element.caseName ?? "-", caseWidth) + "  " + state(element).compact)
      }
    }
    return lines
  }

  /// A one-line summary of what an entry did: `path: +#3 counter, -#1, ~#2`.
  static func summary(_ delta: StackDelta) -> String {
    delta.changes.map { change in
      var parts: [String] = []
      if change.removed {
        parts.append("removed")
      } else {
        parts += change.pushed.map { "+\($0.id)\($0.caseName.map { " " + $0 } ?? "")" }
        parts += change.popped.map { "-\($0)" }
        parts += change.changed.map { "~\($0.id)" }
        if parts.isEmpty { parts.append("reordered") }
      }
      return "\(name(change.path)): " + parts.joined(separator: " ")
    }.joined(separator: "; ")
  }

  /// The JSON of a delta, with element states unwrapped.
  static func deltaJSON(_ delta: StackDelta) -> JSONValue {
    .array(
      delta.changes.map { change in
        .object([
          ("path", .string(change.path)),
          ("nextID", .int(change.nextID.generation)),
          ("ids", .array(change.ids.map { .int($0.generation) })),
          ("pushed", .array(change.pushed.map(elementJSON))),
          ("popped", .array(change.popped.map { .int($0.generation) })),
          ("changed", .array(change.changed.map(elementJSON))),
          ("removed", .bool(change.removed)),
        ])
      })
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  static func padLeft(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }
}

/// Columns aligned for people: the widest cell of each column sets its width.
struct Table {
  /// How a column aligns.
  enum Alignment {
    case left
    case right
  }

  var headers: [String]
  var alignments: [Alignment]
  var rows: [[String]] = []

  init(_ columns: [(String, Alignment)]) {
    headers = columns.map(\.0)
    alignments = columns.map(\.1)
  }

  mutating func add(_ row: [String]) {
    rows.append(row)
  }

  func lines(on terminal: Terminal) -> [String] {
    var widths = headers.map(\.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.count)
      }
    }
    func render(_ row: [String]) -> String {
      row.enumerated().map { index, cell in
        let isLast = index == row.count - 1
        switch alignments[index] {
        case .right: return StackRendering.padLeft(cell, widths[index])
        case .left: return isLast ? cell : StackRendering.pad(cell, widths[index])
        }
      }.joined(separator: "  ")
    }
    func trimmed(_ line: String) -> String {
      String(line.reversed().drop { $0 == " " }.reversed())
    }
    return [terminal.styled(trimmed(render(headers)), .bold)] + rows.map { trimmed(render($0)) }
  }
}
