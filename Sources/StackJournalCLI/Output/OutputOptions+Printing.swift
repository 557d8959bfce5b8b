import StackJournalCore

/// How a command prints its result: one JSON document with `--json`, lines for people otherwise.
extension OutputOptions {
  /// Prints `json()` as one pretty JSON document with `--json`, otherwise what `text` writes to
  /// standard output; flushes standard output either way.
  func print(
    json: () throws -> JSONValue,
    text: (Terminal) throws -> Void
  ) rethrows {
    let out = Terminal.standardOutput
    defer { out.flush() }
    if self.json {
      out.rawLine(try json().pretty)
    } else {
      try text(out)
    }
  }
}
