/// Columns aligned for people: the widest cell of each column sets its width.
public struct Table: Sendable {
  /// How a column aligns.
  public enum Alignment: Sendable {
    /// Padded on the right; the last column is not padded.
    case left
    /// Padded on the left.
    case right
  }

  /// The column headers.
  public var headers: [String]
  /// How each column aligns.
  public var alignments: [Alignment]
  /// The rows added so far.
  public var rows: [[String]] = []

  /// Creates a table with a header and an alignment per column.
  public init(_ columns: [(String, Alignment)]) {
    headers = columns.map(\.0)
    alignments = columns.map(\.1)
  }

  /// Adds a row; cells beyond the columns are printed as they are, unaligned.
  public mutating func add(_ row: [String]) {
    rows.append(row)
  }

  /// The header (bold on a terminal) and the rows, aligned, without trailing spaces, with
  /// characters that are not printable escaped; for standard output.
  public func lines() -> [String] {
    let terminal = Terminal.standardOutput
    return lines(on: terminal).map { Terminal.printable($0, keepingStyles: terminal.colors) }
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
        guard index < widths.count else { return cell }
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
