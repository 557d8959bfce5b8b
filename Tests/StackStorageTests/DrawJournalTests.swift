import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// What a reducer drew, journaled with its entry, on every backend: an append writes it in the
/// entry's own statement, every read of the entry's row gives it back, an export carries it and
/// an import checks it.
final class DrawJournalTests: StorageTestCase {
  static let environment = try! JSONDecoder().decode(
    RecordedEnvironment.self,
    from: Data(
      (#"{"timeZone":"Europe/Paris","locale":"fr_FR","calendar":{"identifier":"gregorian","#
        + #""timeZone":"Europe/Paris","locale":"fr_FR","firstWeekday":2,"#
        + #""minimumDaysInFirstWeek":4}}"#).utf8))

  /// Two UUIDs, a date, a random word and an app's own draw, in the environment above.
  static let draws = EntryDraws(
    values: [
      .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
      .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
      .date(Date(timeIntervalSinceReferenceDate: 786_123_456.789)),
      .random(UInt64.max),
      .value(name: "dice.roll", json: "4"),
    ],
    environment: environment)

  /// A session `s` of three entries: the first drew ``draws``, the second nothing, the third
  /// one date.
  static func record(into journal: any JournalBackend) async throws {
    var root = Root()
    _ = try await journal.createSession("s", initial: StateEncoding.encode(root), version: 1)
    let recorded: [EntryDraws?] = [
      draws, nil, EntryDraws(values: [.date(Date(timeIntervalSinceReferenceDate: 1.5))]),
    ]
    for (index, draws) in recorded.enumerated() {
      let before = try await journal.headStacks(session: "s")
      root.tabA.append(.counter(Counter(count: index)))
      var entry = try JournalEntryDelta(
        type: "tabA.push", version: 1, payload: Data("{}".utf8), from: before,
        to: StateEncoding.encode(root))
      entry.draws = draws
      _ = try await journal.append(session: "s", expectedSequence: Int64(index), entry)
    }
  }

  func testDrawsAreReadBackWithTheirEntriesAndRowsOnEveryBackend() async throws {
    for backend in try await Backends.all() {
      let journal = try XCTUnwrap(backend.journal as? any InspectableJournal)
      try await Self.record(into: journal)
      var entries: [EntryDraws?] = []
      try await journal.entries(session: "s") { entry in
        entries.append(entry.draws)
        return true
      }
      XCTAssertEqual(
        entries,
        [Self.draws, nil, EntryDraws(values: [.date(Date(timeIntervalSinceReferenceDate: 1.5))])],
        backend.name)
      var rows: [String?] = []
      try await journal.journalRows(session: "s", matching: JournalQuery()) { row in
        rows.append(row.draws)
        return true
      }
      XCTAssertEqual(
        rows,
        [String(decoding: Self.draws.json(), as: UTF8.self), nil, #"{"values":[{"date":1.5}]}"#],
        backend.name)
      XCTAssertEqual(try rows[0].map { try JournalRow.draws($0) }, Self.draws, backend.name)
      // The session and a fork of it journal draws from their first entry.
      let info = try await journal.session("s")
      XCTAssertEqual(info?.drawsJournaledFrom, 1, backend.name)
      _ = try await journal.createSession(
        "fork", initial: StateEncoding.encode(Root()), version: 1, forkedFrom: ("s", 2))
      let fork = try await journal.session("fork")
      XCTAssertEqual(fork?.drawsJournaledFrom, 1, backend.name)
      let listed = try await journal.sessions().map(\.drawsJournaledFrom)
      XCTAssertEqual(listed, [1, 1], backend.name)
      let report = try await journal.verifyStorage(session: nil, maxProblemsPerSession: 5)
      XCTAssertTrue(report.isClean, "\(backend.name): \(report.sessions.flatMap(\.problems))")
    }
  }

  func testAnExportCarriesTheDrawsAndAnImportKeepsThem() async throws {
    for backend in try await Backends.all() {
      let journal = try XCTUnwrap(backend.journal as? any InspectableJournal)
      try await Self.record(into: journal)
      let path = directory.path("s-\(backend.name.replacingOccurrences(of: " ", with: "-")).ndjson")
      let text = try await exportText(journal, session: "s")
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let lines = text.split(separator: "\n").map(String.init)
      XCTAssertTrue(lines[0].contains(#""formatVersion":3"#), lines[0])
      XCTAssertTrue(lines[0].contains(#""drawsFrom":1"#), lines[0])
      let entryLines = lines.filter { $0.hasPrefix(#"{"kind":"entry""#) }
      XCTAssertEqual(entryLines.count, 3)
      XCTAssertTrue(
        entryLines[0].hasSuffix(#","draws":\#(String(decoding: Self.draws.json(), as: UTF8.self))}"#),
        entryLines[0])
      XCTAssertFalse(entryLines[1].contains("draws"), entryLines[1])

      let file = try SessionExportFile.read(path: path)
      XCTAssertEqual(file.header.drawsJournaledFrom, 1)
      _ = try await backend.importSession(file, "copy")
      var imported: [EntryDraws?] = []
      try await journal.entries(session: "copy") { entry in
        imported.append(entry.draws)
        return true
      }
      var original: [EntryDraws?] = []
      try await journal.entries(session: "s") { entry in
        original.append(entry.draws)
        return true
      }
      XCTAssertEqual(imported, original, backend.name)
      let copied = try await journal.session("copy")
      XCTAssertEqual(copied?.drawsJournaledFrom, 1, backend.name)
      // Exported again, the copy is the same file but for its identifier and time.
      let again = try await exportText(journal, session: "copy")
      XCTAssertEqual(
        again.split(separator: "\n").dropFirst().map(String.init), Array(lines.dropFirst()),
        backend.name)
    }
  }

  func testAFormat2ExportImportsWithItsEntriesBeforeDrawsWereJournaled() async throws {
    for backend in try await Backends.all() {
      let journal = try XCTUnwrap(backend.journal as? any InspectableJournal)
      try await Self.record(into: journal)
      var lines = try await exportText(journal, session: "s").split(separator: "\n")
        .map(String.init)
      lines[0] = lines[0].replacingOccurrences(of: #""formatVersion":3"#, with: #""formatVersion":2"#)
        .replacingOccurrences(of: #""drawsFrom":1,"#, with: "")
      lines = lines.map { line in
        guard let range = line.range(of: #","draws":"#) else { return line }
        return String(line[..<range.lowerBound]) + "}"
      }
      let path = directory.path("old-\(backend.name.replacingOccurrences(of: " ", with: "-")).ndjson")
      try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
      let file = try SessionExportFile.read(path: path)
      XCTAssertEqual(file.header.formatVersion, 2)
      XCTAssertEqual(file.header.drawsJournaledFrom, 4)
      _ = try await backend.importSession(file, "old")
      let info = try await journal.session("old")
      XCTAssertEqual(info?.drawsJournaledFrom, 4, backend.name)
      var draws: [EntryDraws?] = []
      try await journal.entries(session: "old") { entry in
        draws.append(entry.draws)
        return true
      }
      XCTAssertEqual(draws, [nil, nil, nil], backend.name)
    }
  }

  /// A draw list an export's author forged: the import names the entry and writes nothing.
  func testForgedDrawsInAnExportAreRefusedNamingTheEntryAndNothingIsImported() async throws {
    let forgeries: [(draws: String, finding: String)] = [
      (#"{"values":[{"uuid":"not-a-uuid"}]}"#, #""not-a-uuid" is not a UUID"#),
      (#"{"values":[{"sleep":3}]}"#, "one of"),
      (#"[{"uuid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}]"#, "entry 2, whose draws"),
      ("\"draws\"", "entry 2, whose draws"),
      (
        #"{"values":["# + Array(repeating: #"{"random":"1"}"#, count: EntryDraws.maximumCount + 1)
          .joined(separator: ",") + "]}",
        "more than the \(EntryDraws.maximumCount)"
      ),
    ]
    for backend in try await Backends.all() {
      let journal = try XCTUnwrap(backend.journal as? any InspectableJournal)
      try await Self.record(into: journal)
      let lines = try await exportText(journal, session: "s").split(separator: "\n")
        .map(String.init)
      for (index, forgery) in forgeries.enumerated() {
        var forged = lines
        let entry = try XCTUnwrap(forged.firstIndex { $0.contains(#""kind":"entry","sequence":2,"#) })
        forged[entry] = String(forged[entry].dropLast()) + #","draws":"# + forgery.draws + "}"
        let path = directory.path("forged-\(index).ndjson")
        try forged.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        do {
          _ = try SessionExportFile.read(path: path)
          XCTFail("\(backend.name): forgery \(index) was read")
        } catch let error as StorageError {
          XCTAssertEqual(error.code, .invalidData)
          XCTAssertTrue(error.message.contains("entry 2"), error.message)
          XCTAssertTrue(error.message.contains(forgery.finding), error.message)
          XCTAssertTrue(error.message.hasSuffix("nothing was imported."), error.message)
        }
      }
      // A file checked before it was forged is refused when the import reads it again.
      var forged = lines
      let path = directory.path("changed.ndjson")
      try forged.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
      let file = try SessionExportFile.read(path: path)
      let entry = try XCTUnwrap(forged.firstIndex { $0.contains(#""kind":"entry","sequence":3,"#) })
      forged[entry] = forged[entry].replacingOccurrences(of: #"{"date":1.5}"#, with: #"{"uuid":"x"}"#)
      try forged.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
      do {
        _ = try await backend.importSession(file, "forged")
        XCTFail("\(backend.name): the forged file was imported")
      } catch let error as StorageError {
        XCTAssertTrue(error.message.contains("entry 3"), error.message)
      }
      let sessions = try await journal.sessions().map(\.id)
      XCTAssertEqual(sessions, ["s"], backend.name)
    }
  }

  func testAnEntryWhoseStoredDrawsDoNotDecodeIsReportedAndItsEntryFailsToRead() async throws {
    try await forEachStorage { journal, storage in
      try await Self.record(into: journal)
      try await journal.database.write { db in
        try db.execute(
          sql: "UPDATE journal SET draws = ? WHERE key = (SELECT number FROM sessions "
            + "WHERE id = 's') * 4294967296 + 2",
          arguments: [#"{"values":[{"uuid":"\u001b[31mred"}]}"#])
      }
      let report = try journal.verifyStorage()
      let problems = report.sessions.flatMap(\.problems)
      XCTAssertEqual(problems.map(\.sequence), [2], "\(storage)")
      XCTAssertEqual(problems.first?.kind, .invalidData)
      XCTAssertTrue(
        problems.first?.message.contains("the entry's draws cannot be read") == true,
        "\(problems)")
      do {
        try await journal.entries(session: "s") { _ in true }
        XCTFail("\(storage): an entry with forged draws was read")
      } catch let error as StorageError {
        XCTAssertEqual(error.code, .invalidData)
        XCTAssertTrue(error.message.contains("the draws of entry 2 cannot be read"), error.message)
        XCTAssertTrue(error.message.contains("is not a UUID"), error.message)
      }
      // Exporting it would write a file `import` refuses: it is refused first.
      do {
        _ = try await exportText(journal, session: "s")
        XCTFail("\(storage): a session with forged draws was exported")
      } catch let error as StorageError {
        XCTAssertEqual(error.code, .invalidData)
      }
    }
  }

  // MARK: - Helpers

  func exportText(_ journal: any InspectableJournal, session: SessionID) async throws -> String {
    var data = Data()
    _ = try await SessionExporter().export(session, of: journal) { data.append($0) }
    return String(decoding: data, as: UTF8.self)
  }
}

extension JournalRow {
  /// Stored draws, read as a journal reads them.
  static func draws(_ text: String) throws -> EntryDraws? {
    try JournalRow(
      sequence: 1, recordedAt: "", type: "", version: 1, payload: "", delta: "", draws: text
    ).decodedDraws()
  }
}
