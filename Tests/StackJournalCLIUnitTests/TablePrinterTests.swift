import Foundation
import Testing

@testable import StackJournalCLI

/// The columns `sessions`, `stats` and `demo` print.
struct TablePrinterTests {
  struct Case: Sendable, CustomStringConvertible {
    var description: String
    var columns: [(String, Table.Alignment)]
    var rows: [[String]]
    var lines: [String]
  }

  static let cases: [Case] = [
    Case(
      description: "the widest cell sets a column's width; the last column is not padded",
      columns: [("ID", .left), ("ENTRIES", .right), ("NOTE", .left)],
      rows: [["a", "5", "x"], ["longer-id", "12345678", ""]],
      lines: [
        "ID" + String(repeating: " ", count: 10) + "ENTRIES  NOTE",
        "a" + String(repeating: " ", count: 17) + "5  x",
        "longer-id  12345678",
      ]),
    Case(
      description: "a table without rows is its header",
      columns: [("SESSION", .left), ("HEAD", .right)],
      rows: [],
      lines: ["SESSION  HEAD"]),
    Case(
      description: "a short row is padded as far as it goes",
      columns: [("A", .left), ("B", .right), ("C", .left)],
      rows: [["wide cell"]],
      lines: ["A          B  C", "wide cell"]),
    Case(
      description: "cells beyond the columns are printed as they are",
      columns: [("A", .right)],
      rows: [["1", "extra", "more"]],
      lines: ["A", "1  extra  more"]),
  ]

  @Test(arguments: cases)
  func alignsColumns(_ table: Case) throws {
    var printed = Table(table.columns)
    for row in table.rows { printed.add(row) }
    let devNull = open("/dev/null", O_WRONLY)
    try #require(devNull >= 0)
    defer { close(devNull) }
    #expect(printed.lines(on: Terminal(descriptor: devNull)) == table.lines)
  }
}
