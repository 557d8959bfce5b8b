import Foundation
import StackNavigation

/// The first line of a session export: what the file holds and which versions wrote it.
///
/// A session export is newline-delimited JSON: this header, then one line per snapshot and
/// per journal entry in sequence order (a snapshot at sequence N follows entry N). Payloads,
/// states and deltas are embedded as JSON, so `jq` reads them.
///
/// ```
/// {"kind":"header","format":"stackjournal-session","formatVersion":1,"schemaVersion":1,…}
/// {"kind":"snapshot","sequence":0,"version":1,"recordedAt":"…","state":{…},"stacks":[…]}
/// {"kind":"entry","sequence":1,"recordedAt":"…","type":"pushCounterTapped","version":1,…}
/// ```
public struct SessionExportHeader: Sendable, Equatable {
  /// The value of the header's `format` field.
  public static let format = "stackjournal-session"
  /// The newest line format this build reads and the one it writes.
  public static let currentFormatVersion = 1

  /// The version of the line format.
  public var formatVersion: Int
  /// The schema version of the database the session was exported from.
  public var schemaVersion: Int
  /// When the export was written.
  public var exportedAt: Date
  /// The exported session's identifier.
  public var session: SessionID
  /// When the session was created.
  public var createdAt: Date
  /// The session's metadata as JSON text, if any.
  public var metadata: String?
  /// The session it was forked from, if any.
  public var forkedFrom: SessionID?
  /// The sequence of ``forkedFrom`` it started from.
  public var forkedAt: Int64?
  /// The session's head sequence.
  public var headSequence: Int64
  /// The sequence the journal starts after: the oldest snapshot (0 unless compacted).
  public var baseSequence: Int64
  /// How many entry lines follow.
  public var entryCount: Int64
  /// How many snapshot lines follow.
  public var snapshotCount: Int
  /// The lowest and highest payload versions of the entries and snapshots.
  public var payloadVersions: ClosedRange<Int>?
}

/// A session export read and checked from start to end, without a database.
public struct SessionExportFile: Sendable {
  /// Where the file is.
  public var path: String
  /// Its header.
  public var header: SessionExportHeader
  /// The payload versions found in its lines.
  public var payloadVersions: ClosedRange<Int>?
  /// How many lines it has, header included.
  public var lineCount: Int

  /// The longest line a session export may have, in bytes: 64 MiB.
  ///
  /// The longest line is a snapshot: the whole navigation state and its stacks. A navigation
  /// state holds what the screens on a stack need to come back (IDs, form fields, a fetched
  /// text); the demo's is under a kilobyte and the benchmarks' a few. 64 MiB leaves room for
  /// states thousands of times larger, while a file that is not an export (`/dev/zero`, a
  /// binary) is refused after reading that much instead of filling the memory.
  public static let maximumLineBytes = 64 << 20

  /// Reads a session export and checks every line: the header's format, each line's fields and
  /// JSON, sequences from the oldest snapshot to the head without a gap, every delta applying to
  /// the stacks before it, every snapshot's stacks equal to the journal's. Memory stays flat:
  /// the file is read line by line.
  ///
  /// Throws a ``StorageError`` with code ``StorageError/Code/invalidData`` whose message names
  /// the line for a malformed file, and ``StorageError/Code/fileNotFound`` or
  /// ``StorageError/Code/io`` when it cannot be read.
  public static func read(path: String) throws -> SessionExportFile {
    var reader = try TransferReader(path: path)
    defer { reader.close() }
    let header = try reader.header()
    var versions: ClosedRange<Int>?
    try reader.forEachRecord(header) { record in
      let version = record.version
      versions =
        versions.map { min($0.lowerBound, version)...max($0.upperBound, version) }
        ?? version...version
    }
    return SessionExportFile(
      path: path, header: header, payloadVersions: versions, lineCount: reader.lineNumber)
  }
}

/// One checked line after the header.
enum TransferRecord {
  case snapshot(sequence: Int64, version: Int, recordedAt: String, state: String, stacks: String)
  case entry(
    sequence: Int64, recordedAt: String, type: String, version: Int, payload: String,
    delta: String)

  var version: Int {
    switch self {
    case .snapshot(_, let version, _, _, _), .entry(_, _, _, let version, _, _): version
    }
  }
}

/// Reads a session export line by line and checks it.
struct TransferReader {
  let path: String
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var start = 0
  private var scanned = 0
  private var atEnd = false
  private(set) var lineNumber = 0

  init(path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw StorageError(
        code: .fileNotFound, message: "There is no file \(path) to import; check the path.",
        path: path)
    }
    guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
      throw StorageError(
        code: .io,
        message: "Cannot read \(path)\(isDirectory.boolValue ? ": it is a directory" : ""); "
          + "give the path of a session export.",
        path: path)
    }
    self.path = path
    self.handle = handle
  }

  func close() {
    try? handle.close()
  }

  /// The next non-empty line, or `nil` at the end of the file.
  mutating func nextLine() throws -> ArraySlice<UInt8>? {
    while true {
      if let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
        lineNumber += 1
        var line = buffer[start..<newline]
        start = newline + 1
        if line.last == 0x0D { line = line.dropLast() }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
        return line
      }
      if buffer.count - start > SessionExportFile.maximumLineBytes {
        throw StorageError(
          code: .invalidData,
          message: "Line \(lineNumber + 1) of \(path) is longer than "
            + "\(SessionExportFile.maximumLineBytes >> 20) MiB, the longest line a session export "
            + "may have: the file is not a session export. Nothing was imported.",
          path: path)
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        lineNumber += 1
        var line = buffer[start...]
        start = buffer.count
        if line.last == 0x0D { line = line.dropLast() }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        return line
      }
      buffer.removeFirst(start)
      start = 0
      // Bytes already searched hold no newline: search only what the next read adds.
      scanned = buffer.count
      let chunk: Data?
      do {
        chunk = try handle.read(upToCount: 1 << 20)
      } catch {
        throw StorageError(
          code: .io, message: "Cannot read \(path).", path: path, underlying: error)
      }
      if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
    }
  }

  func malformed(_ problem: String) -> StorageError {
    StorageError(
      code: .invalidData,
      message: "Line \(lineNumber) of \(path) \(problem); nothing was imported.",
      path: path)
  }

  /// Reads and checks the header line.
  mutating func header() throws -> SessionExportHeader {
    guard let line = try nextLine() else {
      throw StorageError(
        code: .invalidData,
        message: "The file \(path) is empty, not a session export; nothing was imported.",
        path: path)
    }
    let object = try parse(line)
    guard try object.string("kind") == "header",
      try object.string("format") == SessionExportHeader.format
    else {
      throw malformed(
        "is not a session export header (its `kind` should be `header` and its `format` "
          + "`\(SessionExportHeader.format)`)")
    }
    let formatVersion = try object.int("formatVersion")
    guard formatVersion >= 1 else { throw malformed("has format version \(formatVersion)") }
    guard formatVersion <= SessionExportHeader.currentFormatVersion else {
      throw StorageError(
        code: .newerSchema,
        message: "The file \(path) is a session export of format version \(formatVersion); "
          + "this build reads up to version \(SessionExportHeader.currentFormatVersion). "
          + "Verdict: impossible; import it with a newer stackjournal. Nothing was imported.",
        path: path)
    }
    let session = try object.object("session")
    var versions: ClosedRange<Int>?
    if let raw = object.members["payloadVersions"], raw != Array("null".utf8)[...] {
      let range = try parse(raw)
      versions = try range.int("min")...max(range.int("min"), range.int("max"))
    }
    let metadata = session.members["metadata"].flatMap { raw -> String? in
      raw.elementsEqual("null".utf8) ? nil : String(decoding: raw, as: UTF8.self)
    }
    return SessionExportHeader(
      formatVersion: formatVersion,
      schemaVersion: try object.int("schemaVersion"),
      exportedAt: try object.time("exportedAt"),
      session: SessionID(try session.string("id")),
      createdAt: try session.time("createdAt"),
      metadata: metadata,
      forkedFrom: try session.optionalString("forkedFrom").map(SessionID.init(rawValue:)),
      forkedAt: try session.optionalInt("forkedAt"),
      headSequence: try session.int64("headSequence"),
      baseSequence: try session.int64("baseSequence"),
      entryCount: try object.int64("entries"),
      snapshotCount: Int(try object.int64("snapshots")),
      payloadVersions: versions)
  }

  /// Reads every line after the header, checking it against the journal so far, and calls
  /// `body` with each.
  mutating func forEachRecord(
    _ header: SessionExportHeader,
    _ body: (TransferRecord) throws -> Void
  ) throws {
    var stacks: [StackRecord]? = nil
    var expected = header.baseSequence + 1
    var entries: Int64 = 0
    var snapshots = 0
    while let line = try nextLine() {
      let object = try parse(line)
      let sequence = try object.int64("sequence")
      let version = try object.int("version")
      let recordedAt = try object.string("recordedAt")
      guard Timestamp.date(from: recordedAt) != nil else {
        throw malformed("has the time `\(recordedAt)`, not one like 2025-01-31T09:30:00.000Z")
      }
      switch try object.string("kind") {
      case "snapshot":
        let state = try object.json("state")
        let stacksText = try object.json("stacks")
        guard
          let decoded = try? JSONDecoder().decode([StackRecord].self, from: Data(stacksText.utf8))
        else { throw malformed("has stacks that cannot be read") }
        if let current = stacks {
          guard sequence == expected - 1 else {
            throw malformed(
              "holds a snapshot at sequence \(sequence), but the journal is at \(expected - 1)")
          }
          guard decoded == current else {
            throw malformed(
              "holds a snapshot whose stacks differ from the journal's at sequence \(sequence): "
                + SQLiteJournal.difference(current, decoded))
          }
        } else {
          guard sequence == header.baseSequence else {
            throw malformed(
              "starts the session at sequence \(sequence), but the header says "
                + "\(header.baseSequence)")
          }
          stacks = decoded
        }
        snapshots += 1
        try body(
          .snapshot(
            sequence: sequence, version: version, recordedAt: recordedAt, state: state,
            stacks: stacksText))
      case "entry":
        guard var current = stacks else {
          throw malformed("holds an entry before the session's first snapshot")
        }
        guard sequence == expected else {
          throw malformed("holds sequence \(sequence) where \(expected) was expected")
        }
        let type = try object.string("type")
        let payload = try object.json("payload")
        let deltaText = try object.json("delta")
        guard let delta = try? JSONDecoder().decode(StackDelta.self, from: Data(deltaText.utf8))
        else { throw malformed("has a delta that cannot be read") }
        do {
          try delta.apply(to: &current)
        } catch let error as StorageError {
          throw malformed("has a delta that does not apply: \(error.message)")
        }
        stacks = current
        expected += 1
        entries += 1
        try body(
          .entry(
            sequence: sequence, recordedAt: recordedAt, type: type, version: version,
            payload: payload, delta: deltaText))
      case let kind:
        throw malformed("has the kind `\(kind)`; expected `snapshot` or `entry`")
      }
    }
    guard stacks != nil else {
      throw malformed("ends the file before the session's first snapshot")
    }
    guard expected - 1 == header.headSequence, entries == header.entryCount,
      snapshots == header.snapshotCount
    else {
      throw malformed(
        "ends the file at sequence \(expected - 1) with \(entries) entries and \(snapshots) "
          + "snapshots, but the header announces head \(header.headSequence), "
          + "\(header.entryCount) entries and \(header.snapshotCount) snapshots: the file is cut "
          + "short or was edited")
    }
  }

  private func parse(_ line: ArraySlice<UInt8>) throws -> TransferObject {
    guard let object = TransferObject(line) else {
      throw malformed("is not a JSON object")
    }
    return TransferObject(members: object.members, reader: self)
  }
}

/// The members of one JSON object line, each kept as its raw bytes.
struct TransferObject {
  var members: [String: ArraySlice<UInt8>]
  var reader: TransferReader?

  init(members: [String: ArraySlice<UInt8>], reader: TransferReader?) {
    self.members = members
    self.reader = reader
  }

  /// Splits a JSON object into its members; `nil` when the bytes are not one JSON object.
  init?(_ bytes: ArraySlice<UInt8>) {
    var scanner = JSONScanner(bytes: bytes)
    guard let members = scanner.objectMembers() else { return nil }
    self.members = members
    self.reader = nil
  }

  private func fail(_ problem: String) -> StorageError {
    reader?.malformed(problem)
      ?? StorageError(code: .invalidData, message: "A line \(problem).")
  }

  private func raw(_ key: String) throws -> ArraySlice<UInt8> {
    guard let value = members[key] else { throw fail("has no `\(key)`") }
    return value
  }

  func string(_ key: String) throws -> String {
    guard let value = try? JSONDecoder().decode(String.self, from: Data(try raw(key))) else {
      throw fail("has a `\(key)` that is not a string")
    }
    return value
  }

  func optionalString(_ key: String) throws -> String? {
    guard let value = members[key], !value.elementsEqual("null".utf8) else { return nil }
    return try string(key)
  }

  func int64(_ key: String) throws -> Int64 {
    guard let value = Int64(String(decoding: try raw(key), as: UTF8.self)) else {
      throw fail("has a `\(key)` that is not an integer")
    }
    return value
  }

  func int(_ key: String) throws -> Int {
    Int(try int64(key))
  }

  func optionalInt(_ key: String) throws -> Int64? {
    guard let value = members[key], !value.elementsEqual("null".utf8) else { return nil }
    return try int64(key)
  }

  func time(_ key: String) throws -> Date {
    let text = try string(key)
    guard let date = Timestamp.date(from: text) else {
      throw fail("has a `\(key)` of `\(text)`, not a time like 2025-01-31T09:30:00.000Z")
    }
    return date
  }

  func object(_ key: String) throws -> TransferObject {
    guard let object = TransferObject(try raw(key)) else {
      throw fail("has a `\(key)` that is not a JSON object")
    }
    return TransferObject(members: object.members, reader: reader)
  }

  /// A member that holds any JSON value, as text exactly as written.
  func json(_ key: String) throws -> String {
    let value = try raw(key)
    guard JSONText.isJSON(value) else { throw fail("has a `\(key)` that is not valid JSON") }
    return String(decoding: value, as: UTF8.self)
  }
}
